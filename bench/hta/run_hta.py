# Usage: python run_hta.py <outdir> <trace_folder>...
import sys, os, time, logging, traceback
import pandas as pd
import hta
from hta.trace_analysis import TraceAnalysis
pd.set_option("display.width", 250); pd.set_option("display.max_columns", 30)
out = sys.argv[1]; os.makedirs(out, exist_ok=True)
print("HTA", hta.__file__, getattr(__import__("hta.version", fromlist=["x"]), "__version__", "?"), "pandas", pd.__version__)
for d in sys.argv[2:]:
    name = os.path.basename(d.rstrip("/"))
    t0 = time.perf_counter()
    try:
        a = TraceAnalysis(trace_dir=d)
    except Exception as e:
        print(f"=== {name}: LOAD FAILED: {type(e).__name__}: {e}"); continue
    t1 = time.perf_counter()
    ranks = a.t.get_ranks()
    print(f"=== {name}: ranks={ranks} load={t1-t0:.2f}s")
    try:
        tb = a.get_temporal_breakdown(visualize=False)
        tb.to_csv(f"{out}/{name}_temporal.csv", index=False); print(tb.to_string())
    except Exception as e:
        print(f"temporal FAILED: {type(e).__name__}: {e}"); traceback.print_exc(limit=3)
    t2 = time.perf_counter()
    try:
        idle, stats = a.get_idle_time_breakdown(ranks=ranks, visualize=False, show_idle_interval_stats=True)
        idle.to_csv(f"{out}/{name}_idle.csv", index=False); print(idle.to_string())
        if stats is not None:
            stats.to_csv(f"{out}/{name}_idle_stats.csv"); print(stats.to_string())
    except Exception as e:
        print(f"idle FAILED: {type(e).__name__}: {e}"); traceback.print_exc(limit=3)
    t3 = time.perf_counter()
    # Queue length and memory bandwidth: describe() flattened to
    # rank,stream|name,count,mean,std,min,25%,50%,75%,max; the time blocked
    # at a queue of 16 (no trace here reaches CUDA's 1024).
    def flat(df, key):
        if df is None or len(df) == 0:
            return pd.DataFrame(columns=["rank", key, "count", "mean", "std", "min", "25%", "50%", "75%", "max"])
        df = df.copy(); df.columns = [c[1] for c in df.columns]
        return df.reset_index()
    try:
        flat(a.get_queue_length_summary(ranks=ranks), "stream").to_csv(f"{out}/{name}_queue_length_summary.csv", index=False)
        b = a.get_time_spent_blocked_on_full_queue(a.get_queue_length_time_series(ranks=ranks), max_queue_length=16)
        b.to_csv(f"{out}/{name}_queue_length_blocked_max16.csv", index=False)
    except Exception as e:
        print(f"queue FAILED: {type(e).__name__}: {e}")
    try:
        flat(a.get_memory_bw_summary(ranks=ranks), "name").to_csv(f"{out}/{name}_memory_bw_summary.csv", index=False)
    except Exception as e:
        print(f"memory bw FAILED: {type(e).__name__}: {e}")
    t4 = time.perf_counter()
    print(f"--- {name}: temporal={t2-t1:.2f}s idle={t3-t2:.2f}s counters={t4-t3:.2f}s total={t4-t0:.2f}s")
