import { startRedis } from '../support/redis.js';
import { brokerOutageSuite } from './broker-outage.suite.js';
import { redisBus } from './bus-harnesses.js';

brokerOutageSuite(
  'RedisTaskEventBus',
  () => startRedis(),
  (url) => redisBus(url),
);
