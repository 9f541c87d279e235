import { startNats } from '../support/nats.js';
import { brokerOutageSuite } from './broker-outage.suite.js';
import { natsBus } from './bus-harnesses.js';

brokerOutageSuite(
  'NatsTaskEventBus',
  () => startNats(),
  (url) => natsBus(url),
);
