import { BUS_NATS, BUS_POSTGRES, BUS_REDIS, WRITER_ALONE, WRITER_PG_BUS, WRITER_REDIS_BUS } from './names.js';
import { pairedRatio, ratio } from './ratios.js';
import type { Results } from './results.js';
import type { Target } from './targets.js';

const BUSES = [BUS_POSTGRES, BUS_REDIS, BUS_NATS];
const short = (who: string) => who.replace('module/PostgreSQL store, ', '');

const writerRatio = (a: string, b: string) => pairedRatio('writerTps', a, b);

/**
 * Issue 40. Per bus: cross-instance cancel and answer p99 (reported), and each instance's CPU per relayed cancel with 4
 * instances running tasks ≤ 1.2× that with 1 (a targeted relay reaches only the instance running the task, so an
 * instance's cost per event does not grow with the instances). On PostgreSQL, another writer's commit rate beside
 * the module's relays.
 */
export const BUS_TARGETS: Target[] = [
  ...BUSES.flatMap((who): Target[] => [
    ...(['cancelP99', 'answerP99'] as const).map((metric) => ({
      metric,
      contestant: who,
      text: `${short(who)}, reported: ${metric === 'cancelP99' ? 'cancel' : 'answer'} across instances, p99`,
      measure: (r: Results) => {
        const x = r.value(metric, who);
        return x === undefined ? undefined : { x, shown: `${x.toFixed(2)} ms` };
      },
    })),
    {
      metric: 'relayCpu4',
      contestant: who,
      text: `${short(who)}: each instance's CPU per relayed cancel, 4 instances ≤ 1.2× 1 instance`,
      measure: pairedRatio('relayCpu4', who, who, 'relayCpu1'),
      met: (x) => x <= 1.2,
    },
    {
      metric: 'relayEvents4',
      contestant: who,
      text: `${short(who)}, reported: events handed each instance per cancel of its own, 4 instances ÷ 1`,
      measure: ratio('relayEvents4', who, who, 'relayEvents1'),
    },
    {
      metric: 'relayCpu2',
      contestant: who,
      text: `${short(who)}, reported: each instance's CPU per relayed cancel, 4 instances ÷ 2`,
      measure: pairedRatio('relayCpu4', who, who, 'relayCpu2'),
    },
  ]),
  ...[WRITER_PG_BUS, WRITER_REDIS_BUS].map((who) => ({
    metric: 'writerTps' as const,
    contestant: who,
    text: `Another writer's commits/s on the database, reported: ${who.replace('another writer, ', '')} ÷ alone`,
    measure: writerRatio(who, WRITER_ALONE),
  })),
  {
    metric: 'writerTps',
    contestant: WRITER_PG_BUS,
    text: "Another writer's commits/s on the database, reported: the module on the PostgreSQL bus ÷ on the Redis bus",
    measure: writerRatio(WRITER_PG_BUS, WRITER_REDIS_BUS),
  },
];
