import 'reflect-metadata';
import { AppModule } from './app.module.js';
import { bootstrap } from './bootstrap.js';

await bootstrap(AppModule);
