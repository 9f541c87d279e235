import { startNats } from '../support/nats.js';
import { brokerRestartSuite } from './broker-restart.suite.js';

brokerRestartSuite(
  'bus { type: "nats" }',
  () => startNats(),
  (url) => ({ type: 'nats', connection: url }),
);
