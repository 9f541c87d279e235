import { startRedis } from '../support/redis.js';
import { brokerRestartSuite } from './broker-restart.suite.js';

brokerRestartSuite(
  'bus { type: "redis" }',
  () => startRedis(),
  (url) => ({ type: 'redis', connection: url }),
);
