import { Module } from '@nestjs/common';
import { ChangeFixtures } from './change-fixtures.service.js';
import { ContentFixtures } from './content-fixtures.service.js';
import { ElicitationFixtures } from './elicitation-fixtures.service.js';
import { InputFixtures } from './input-fixtures.service.js';
import { PromptFixtures } from './prompt-fixtures.service.js';
import { ReconnectionFixtures } from './reconnection-fixtures.service.js';
import { LoggingFixtures } from './logging-fixtures.service.js';
import { ResourceFixtures } from './resource-fixtures.service.js';
import { SchemaFixtures } from './schema-fixtures.service.js';
import { TaskFixtures } from './task-fixtures.service.js';

/** Fixture tools the official conformance suite calls by name. */
@Module({
  providers: [
    ContentFixtures,
    TaskFixtures,
    InputFixtures,
    PromptFixtures,
    LoggingFixtures,
    ResourceFixtures,
    ElicitationFixtures,
    SchemaFixtures,
    ChangeFixtures,
    ReconnectionFixtures,
  ],
})
export class ConformanceModule {}
