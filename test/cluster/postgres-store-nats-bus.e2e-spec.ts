import { clusterPairSuite } from './cluster-pair.suite.js';

clusterPairSuite('postgres', 'nats');
