import { clusterPairSuite } from './cluster-pair.suite.js';

clusterPairSuite('redis', 'redis');
