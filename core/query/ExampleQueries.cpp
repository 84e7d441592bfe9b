#include "query/ExampleQueries.h"

namespace ts {

// The same text as docs/sql.md's "Questions and their queries" (a test
// checks that the page shows each one).
const std::vector<ExampleQuery>& exampleQueries() {
    static const std::vector<ExampleQuery> examples{
        {"Which kernels take the most time?",
         R"sql(SELECT name, count(*) AS calls, sum(dur) / 1e6 AS total_ms, avg(dur) / 1e3 AS avg_us
FROM kernels GROUP BY name ORDER BY total_ms DESC, name LIMIT 20;)sql"},
        {"Which kernels did the operators of the first step launch (put your annotation's name)?",
         R"sql(WITH a AS (SELECT lane, ts, end_ts FROM slices
           WHERE name LIKE 'ProfilerStep#%' AND kind IN ('annotation', 'profiler_step')
           ORDER BY ts LIMIT 1)
SELECT k.name, count(*) AS calls, sum(k.dur) / 1e3 AS total_us
FROM a JOIN slices op ON op.lane = a.lane AND op.ts >= a.ts AND op.ts < a.end_ts
JOIN kernels k ON k.op_id = op.id
GROUP BY k.name ORDER BY total_us DESC, k.name LIMIT 10;)sql"},
        {"How long did all-reduce take per step, per rank?",
         R"sql(SELECT rank, step, count(*) AS calls, sum(dur) / 1e6 AS allreduce_ms
FROM kernels WHERE name LIKE '%AllReduce%' OR name LIKE '%allreduce%'
GROUP BY rank, step ORDER BY rank, step;)sql"},
        {"Which launches waited more than 100 µs before their kernel started?",
         R"sql(SELECT l.delay / 1e3 AS delay_us, k.name AS kernel, k.step, op.name AS op
FROM launches l JOIN kernels k ON k.id = l.kernel_id LEFT JOIN slices op ON op.id = l.op_id
WHERE l.delay > 100000 ORDER BY l.delay DESC, l.kernel_id LIMIT 50;)sql"},
        {"Which operator launched the longest kernel of each step?",
         R"sql(SELECT step, kernel, dur_us, op FROM (
  SELECT k.step, k.name AS kernel, k.dur / 1e3 AS dur_us, op.name AS op,
         row_number() OVER (PARTITION BY k.step ORDER BY k.dur DESC, k.id) AS r
  FROM kernels k LEFT JOIN slices op ON op.id = k.op_id WHERE k.step IS NOT NULL)
WHERE r = 1 ORDER BY step;)sql"},
        {"How busy were the streams in each step (kernel time over step time, summed over "
         "streams)?",
         R"sql(SELECT s.step, s.dur / 1e6 AS step_ms, sum(k.dur) * 100.0 / s.dur AS busy_pct
FROM steps s JOIN kernels k ON k.step = s.step GROUP BY s.step ORDER BY s.step;)sql"},
        {"Which operators have the most self time (their time minus their children's)?",
         R"sql(SELECT p.name, count(*) AS calls, sum(p.dur - coalesce(c.child, 0)) / 1e6 AS self_ms
FROM slices p LEFT JOIN (SELECT parent_id, sum(dur) AS child FROM slices
                         WHERE parent_id IS NOT NULL GROUP BY parent_id) c ON c.parent_id = p.id
WHERE p.kind IN ('operator', 'backward') GROUP BY p.name ORDER BY self_ms DESC, p.name LIMIT 20;)sql"},
        {"Which operators allocated the most memory?",
         R"sql(SELECT s.name, count(*) AS allocations, sum(m.bytes) / 1e6 AS allocated_mb
FROM memory m JOIN slices s ON s.id = m.event_id
WHERE m.bytes > 0 GROUP BY s.name ORDER BY allocated_mb DESC, s.name LIMIT 20;)sql"},
        {"Which kernels run at low occupancy for a meaningful time?",
         R"sql(SELECT name, grid_x, block_x, registers, shared_memory, avg(occupancy) AS occupancy,
       sum(dur) / 1e6 AS total_ms
FROM kernels WHERE occupancy < 25 GROUP BY name, grid_x, block_x
ORDER BY total_ms DESC, name, grid_x, block_x LIMIT 20;)sql"},
        {"How fast were the copies, by kind of copy?",
         R"sql(SELECT name, count(*) AS copies, avg(gbps) AS avg_gbps, sum(dur) / 1e6 AS total_ms
FROM kernels WHERE kind = 'memcpy' GROUP BY name ORDER BY total_ms DESC, name;)sql"},
        {"How long did the CPU wait in synchronize calls, per step?",
         R"sql(SELECT step, name, count(*) AS calls, sum(dur) / 1e6 AS total_ms
FROM slices WHERE kind = 'runtime' AND name LIKE '%Synchronize%'
GROUP BY step, name ORDER BY step, total_ms DESC, name;)sql"},
        {"Where did a stream sit idle for more than 100 µs between kernels?",
         R"sql(SELECT lane, prev_end, ts, (ts - prev_end) / 1e3 AS gap_us FROM (
  SELECT lane, ts, lag(end_ts) OVER (PARTITION BY lane ORDER BY ts) AS prev_end FROM kernels)
WHERE ts - prev_end > 100000 ORDER BY gap_us DESC, lane, ts LIMIT 20;)sql"},
        {"When was device memory at its peak, and what was running?",
         R"sql(SELECT m.ts / 1e3 AS ts_us, m.total_allocated / 1e6 AS allocated_mb, s.name AS event
FROM memory m LEFT JOIN slices s ON s.id = m.event_id
WHERE m.total_allocated IS NOT NULL ORDER BY m.total_allocated DESC, m.ts LIMIT 1;)sql"},
        {"Which input shapes make an operator slow?",
         R"sql(SELECT a.string_value AS shapes, count(*) AS calls, avg(s.dur) / 1e3 AS avg_us
FROM slices s JOIN args a ON a.event_id = s.id AND a.key = 'shapes'
WHERE s.name IN ('aten::mm', 'aten::addmm', 'aten::linear', 'aten::conv2d')
GROUP BY s.name, shapes ORDER BY avg_us DESC, s.name, shapes LIMIT 20;)sql"},
        {"What overlaps a time window (here 10 ms to 11 ms), longest first?",
         R"sql(SELECT id, name, lane, ts, dur FROM slices
WHERE end_ts > 10000000 AND ts < 11000000 ORDER BY dur DESC, id LIMIT 10;)sql"},
    };
    return examples;
}

} // namespace ts
