#!/usr/bin/env python
"""Regenerates the HTA critical-path expected figures under cp/expected/.

Usage (from /work/hta-research):
  PYTHONHASHSEED=0 PYTHONPATH=hta-src venv/bin/python cp/run_cp.py            # all small/medium traces
  PYTHONHASHSEED=0 PYTHONPATH=hta-src venv/bin/python cp/run_cp.py --only h100_gpt_decoder_bf16
  PYTHONHASHSEED=0 PYTHONPATH=hta-src timeout 1800 venv/bin/python cp/run_cp.py --big   # the 1 GB trace

For every case it writes
  expected/<case>.json            scalar figures (window, lengths, counts, timings, errors)
  expected/<case>_breakdown.csv   get_critical_path_breakdown(), rows in path order (+ extra columns, see below)
  expected/<case>_summary.csv     summary() Series (bound_by -> % of duration)
<case> = <trace>__r<rank>__<annotation tag>_<instance>__zw<0|1>
  zw1 = CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE on (the setting HTA's tests use), zw0 = HTA default (off).

Only the driver observes HTA: it never changes what HTA computes. Two read-only hooks:
  * CPGraph._add_edge is wrapped to count add_edge calls and (u,v) overwrites
    (networkx keeps one edge per node pair; a later add replaces the earlier object).
  * CPGraph.critical_path is wrapped to time it.
The breakdown is produced by HTA's own get_critical_path_breakdown(); the only
difference is that critical_path_edges_set is temporarily replaced by the same
edges in path order, so the rows come out in path order instead of set (hash)
order. Extra columns appended after HTA's columns: path_pos, begin_node, end_node,
begin_ts, end_ts, begin_ev, end_ev, begin_is_start, end_is_start, graph_weight.
"""
import argparse
import gzip
import json
import logging
import os
import resource
import shutil
import sys
import tempfile
import time
import traceback
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TRACES = os.path.join(ROOT, "traces")
OUT = os.path.join(HERE, "expected")
BIG_SRC = "/work/hta-bench/trace_095e20ffe051bc81_1000000000.json"
BIG_DIR = os.path.join(HERE, "big1g")

T_IMPORT0 = time.perf_counter()
import networkx as nx  # noqa: E402
import pandas as pd  # noqa: E402
import hta  # noqa: E402
import hta.analyzers.critical_path_analysis as cpa  # noqa: E402
from hta.analyzers.critical_path_analysis import CPEdgeType, CPGraph, CriticalPathAnalysis  # noqa: E402
from hta.configs.env_options import HTAEnvOptions  # noqa: E402
from hta.trace_analysis import TraceAnalysis  # noqa: E402
T_IMPORT = time.perf_counter() - T_IMPORT0

ALEX = "[param|pytorch.model.alex_net|0|0|0|measure|forward]"
PS = "ProfilerStep"

# (trace folder, ranks, [(annotation, instance_id, note)])
STD = [(PS, 0, ""), (PS, 1, ""), ("", None, "whole trace")]
PLAN = [
    ("hta_critical_path_simple_add", [0], [(ALEX, 1, "test_critical_path_basic_add & co."), (ALEX, 0, ""),
                                           ("__nonexistent__", 0, "test_critical_path_analysis_return_type_optional")] + STD),
    ("hta_critical_path_alexnet", [0], [(ALEX, 1, "test_critical_path_inter_stream_sync, _breakdown_and_save_restore"), (ALEX, 0, "")] + STD),
    ("hta_critical_path_cuda_event_sync", [0], STD + [(PS, (0, 1), "instance range")]),
    ("hta_critical_path_cuda_event_sync_multi_stream", [0], STD),
    ("hta_ns_resolution_trace", [0], STD),
    ("hta_amd_trace", [0], STD),
    ("hta_triton_example", [0], STD),
    ("hta_mtia_trace_single_rank", [0], STD),
    ("tb_gpu_util", [0], STD),
    ("kineto_call_stacks", [0], STD),
    ("hta_rank_non_gpu", [0], STD),
    ("hta_trace_filter", [0, 1], STD),
    ("distributed_hta", [0, 1], STD),
    ("h100_resnet50_bs64_bf16", [0], STD),
    ("h100_gpt_decoder_bf16", [0], STD),
]
SKIP_OVERLAY = {"big1g"}

# --------------------------------------------------------------------------- hooks
EDGE_LOG = {"calls": 0, "overwrites": Counter()}
_orig_add_edge = CPGraph._add_edge


def _add_edge_hook(self, edge):
    EDGE_LOG["calls"] += 1
    if self.has_edge(edge.begin, edge.end):
        old = self.edges[edge.begin, edge.end]["object"]
        EDGE_LOG["overwrites"][f"{old.type.value}(w={old.weight}) -> {edge.type.value}(w={edge.weight})"] += 1
    return _orig_add_edge(self, edge)


CPGraph._add_edge = _add_edge_hook
CP_TIME = {}
_orig_cp = CPGraph.critical_path


def _cp_hook(self):
    t0 = time.perf_counter()
    r = _orig_cp(self)
    CP_TIME["critical_path_s"] = time.perf_counter() - t0
    return r


CPGraph.critical_path = _cp_hook


class CountingHandler(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.counts = Counter()

    def emit(self, record):
        msg = record.getMessage()
        key = f"{record.levelname}: {msg[:60]}"
        self.counts[key] += 1


COUNTER = CountingHandler()


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def ann_tag(annotation, inst):
    if annotation == "":
        a = "ALL"
    elif annotation == ALEX:
        a = "alexfwd"
    elif annotation == PS:
        a = "PS"
    else:
        a = "".join(c if c.isalnum() else "_" for c in annotation).strip("_")
    if inst is None:
        i = "None"
    elif isinstance(inst, tuple):
        i = f"{inst[0]}-{inst[1]}"
    else:
        i = str(inst)
    return f"{a}_{i}"


def annotation_window(t, rank, annotation, instance_id):
    """Re-evaluates HTA's window selection exactly as critical_path_analysis does it
    (same expressions), and also lists the matched annotation events."""
    df = t.get_trace(rank)
    sym_index = t.symbol_table.get_sym_id_map()
    sym_table = t.symbol_table.get_sym_table()
    ids = [val for key, val in sym_index.items() if annotation in key]
    info = {"annotation_symbols_matched": len(ids)}
    if annotation != "":
        info["annotation_symbol_names"] = sorted(k for k in sym_index if annotation in k)[:50]
    if not ids:
        return info
    if instance_id is None:
        s, e = 0, 0
    elif isinstance(instance_id, tuple):
        s, e = instance_id
    else:
        s, e = instance_id, instance_id
    if annotation == "":
        info["start_ts"] = int(df.ts.min())
        info["end_ts"] = int(df.end.max())
        info["window_rule"] = "trace_df.ts.min() .. trace_df.end.max() (whole rank)"
    else:
        anns = df[df.name.isin(ids)].copy()
        anns["end_ts"] = anns["ts"] + anns["dur"]
        st = anns.ts[s: e + 1].min()
        en = anns.end_ts[s: e + 1].max()
        info["start_ts"] = None if pd.isna(st) else int(st)
        info["end_ts"] = None if pd.isna(en) else int(en)
        # is the slice positional?  compare with iloc
        info["slice_is_positional"] = bool(
            (pd.isna(st) and pd.isna(anns.ts.iloc[s: e + 1].min())) or st == anns.ts.iloc[s: e + 1].min()
        )
        info["annotation_events_total"] = int(len(anns))
        rows = []
        for pos, r in enumerate(anns.itertuples()):
            if pos >= 12:
                break
            rows.append({
                "pos": pos, "index": int(r.index), "name": sym_table[int(r.name)], "cat": sym_table[int(r.cat)],
                "ts": int(r.ts), "dur": int(r.dur), "end_ts": int(r.end_ts), "stream": int(r.stream),
                "pid": int(r.pid), "tid": int(r.tid), "selected": s <= pos <= e,
            })
        info["annotation_events_first12"] = rows
    if info.get("start_ts") is not None and info.get("end_ts") is not None:
        info["window_dur"] = info["end_ts"] - info["start_ts"]
    return info


def overlay_stats(path):
    with gzip.open(path, "r") as f:
        ev = json.load(f)["traceEvents"]
    return {
        "total_X_events_excl_user_annotation_python_function": sum(
            1 for e in ev if e["ph"] == "X" and e.get("cat", "") not in {"user_annotation", "python_function"}),
        "marked_critical_events": sum(e["args"].get("critical", 0) for e in ev if "args" in e and e["ph"] == "X"),
        "marked_critical_edges": sum(e["args"].get("critical", 0) for e in ev if "args" in e and e["ph"] == "f"),
        "flow_events_by_type": dict(Counter(e["args"]["type"] for e in ev if "args" in e and "type" in e["args"]
                                            and "critical_path" in str(e["args"]["type"]))),
    }


def run_case(ta, trace_name, rank, annotation, inst, note, zw, parse_s, do_overlay):
    case = f"{trace_name}__r{rank}__{ann_tag(annotation, inst)}__zw{int(zw)}"
    log(f"case {case}")
    res = {
        "case": case, "trace": trace_name, "rank": rank, "annotation": annotation,
        "instance_id": list(inst) if isinstance(inst, tuple) else inst, "note": note,
        "zero_weight_launch_edges": zw, "hta_version": "0.6.1 (source)", "pandas": pd.__version__,
        "networkx": nx.__version__, "parse_s": parse_s,
        "trace_df_events": int(len(ta.t.get_trace(rank))),
    }
    HTAEnvOptions.instance().set_critical_path_add_zero_weight_launch_edges(zw)
    CPGraph._add_zero_weight_launch_edges.cache_clear()
    try:
        res.update(annotation_window(ta.t, rank, annotation, inst))
    except Exception as ex:  # noqa
        res["window_error"] = f"{type(ex).__name__}: {ex}"
    EDGE_LOG["calls"] = 0
    EDGE_LOG["overwrites"] = Counter()
    CP_TIME.clear()
    cpa.PROFILE_TIMES.clear()
    COUNTER.counts.clear()
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    try:
        r = ta.critical_path_analysis(rank=rank, annotation=annotation, instance_id=inst)
    except BaseException as ex:  # noqa
        res["cp_s"] = time.perf_counter() - t0
        res["status"] = "exception"
        res["exception_type"] = type(ex).__name__
        res["exception"] = str(ex)
        res["traceback_tail"] = traceback.format_exc().strip().splitlines()[-6:]
        res["edge_add_calls_before_failure"] = EDGE_LOG["calls"]
        res["profile_times"] = dict(cpa.PROFILE_TIMES)
        res["hta_log_warnings"] = dict(COUNTER.counts)
        log(f"  EXCEPTION {type(ex).__name__}: {ex}")
        write_json(case, res)
        return res
    res["cp_s"] = time.perf_counter() - t0
    res["critical_path_s"] = CP_TIME.get("critical_path_s")
    res["profile_times"] = dict(cpa.PROFILE_TIMES)
    res["hta_log_warnings"] = dict(COUNTER.counts)
    res["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    res["peak_rss_mb_before_case"] = rss0 / 1024
    if r is None:
        res["status"] = "returned None"
        log("  returned None")
        write_json(case, res)
        return res
    g, ok = r
    res["status"] = "success" if ok else "critical_path() returned False"
    res["success"] = bool(ok)
    res["clipped_df_events"] = int(len(g.trace_df))
    res["graph_nodes"] = int(g.number_of_nodes())
    res["node_list_len"] = len(g.node_list)
    res["graph_edges"] = int(g.number_of_edges())
    res["edge_add_calls"] = EDGE_LOG["calls"]
    res["edge_overwrites"] = dict(EDGE_LOG["overwrites"])
    res["isolated_nodes"] = int(nx.number_of_isolates(g))
    objs = [g.edges[u, v]["object"] for u, v in g.edges]
    res["graph_edge_types"] = dict(sorted(Counter(e.type.value for e in objs).items()))
    res["graph_edge_weight_by_type"] = {k: int(v) for k, v in sorted(
        Counter({t.value: sum(e.weight for e in objs if e.type == t) for t in CPEdgeType}).items())}
    res["graph_zero_weight_edges_by_type"] = dict(sorted(Counter(e.type.value for e in objs if e.weight == 0).items()))
    res["graph_zero_weight_launch_edges"] = sum(1 for e in objs if CriticalPathAnalysis._is_zero_weight_launch_edge(e))
    res["graph_negative_weight_edges"] = dict(Counter(f"{e.type.value}(w={e.weight})" for e in objs if e.weight < 0))
    res["graph_weight_attr_differs_from_object"] = sum(
        1 for u, v in g.edges if g.edges[u, v]["weight"] != g.edges[u, v]["object"].weight)
    res["graph_edges_with_event_attribution"] = len(g.edge_to_event_map)
    if not ok:
        write_json(case, res)
        return res
    path = list(g.critical_path_nodes)
    pedges = [g.edges[u, v]["object"] for u, v in zip(path[:-1], path[1:])]
    res["path_nodes"] = len(path)
    res["path_edges"] = len(g.critical_path_edges_set)
    res["path_events"] = len(g.critical_path_events_set)
    res["path_length_sum_object_weight"] = int(sum(e.weight for e in pedges))
    res["path_length_sum_graph_weight"] = int(sum(g.edges[u, v]["weight"] for u, v in zip(path[:-1], path[1:])))
    res["dag_longest_path_length"] = int(nx.dag_longest_path_length(g, weight="weight"))
    n0, n1 = g.node_list[path[0]], g.node_list[path[-1]]
    res["path_first_node"] = {"node": n0.idx, "ev_idx": int(n0.ev_idx), "ts": int(n0.ts), "is_start": bool(n0.is_start),
                              "name": g._get_node_name(n0.ev_idx)}
    res["path_last_node"] = {"node": n1.idx, "ev_idx": int(n1.ev_idx), "ts": int(n1.ts), "is_start": bool(n1.is_start),
                             "name": g._get_node_name(n1.ev_idx)}
    res["path_span_ts"] = int(n1.ts - n0.ts)
    res["graph_first_node_ts"] = int(g.node_list[0].ts)
    res["graph_last_node_ts"] = int(max(n.ts for n in g.node_list))
    res["path_edge_types"] = dict(sorted(Counter(e.type.value for e in pedges).items()))
    res["path_weight_by_type"] = {k: int(v) for k, v in sorted(
        Counter({t.value: sum(e.weight for e in pedges if e.type == t) for t in CPEdgeType}).items()) if v}
    res["path_zero_weight_edges_by_type"] = dict(sorted(Counter(e.type.value for e in pedges if e.weight == 0).items()))
    res["path_first_edges"] = [[e.begin, e.end, e.type.value, int(e.weight)] for e in pedges[:8]]
    res["path_last_edges"] = [[e.begin, e.end, e.type.value, int(e.weight)] for e in pedges[-8:]]

    # breakdown (HTA's own function, edge iteration in path order)
    t1 = time.perf_counter()
    saved = g.critical_path_edges_set
    try:
        g.critical_path_edges_set = list(pedges)  # same edges, path order
        bd = g.get_critical_path_breakdown()
        t2 = time.perf_counter()
        summ = g.summary()
        t3 = time.perf_counter()
    finally:
        g.critical_path_edges_set = saved
    res["breakdown_s"] = t2 - t1
    res["summary_s"] = t3 - t2
    hta_cols = list(bd.columns)
    res["breakdown_columns"] = hta_cols
    res["breakdown_rows"] = int(len(bd))
    res["breakdown_duration_sum"] = int(bd.duration.sum())
    res["breakdown_duration_by_bound_by"] = {str(k): int(v) for k, v in bd.groupby("bound_by").duration.sum().items()}
    res["breakdown_rows_by_bound_by"] = {str(k): int(v) for k, v in bd.groupby("bound_by").size().items()}
    res["breakdown_event_idx_null_rows"] = int(bd.event_idx.isna().sum())
    res["breakdown_dtypes"] = {c: str(t) for c, t in bd.dtypes.items()}
    res["summary"] = {str(k): float(v) for k, v in summ.items()}
    res["summary_len"] = int(len(summ))
    res["summary_index_order"] = [str(k) for k in summ.index]
    bd = bd.copy()
    bd["path_pos"] = range(len(pedges))
    bd["begin_node"] = [e.begin for e in pedges]
    bd["end_node"] = [e.end for e in pedges]
    bd["begin_ts"] = [int(g.node_list[e.begin].ts) for e in pedges]
    bd["end_ts"] = [int(g.node_list[e.end].ts) for e in pedges]
    bd["begin_ev"] = [int(g.node_list[e.begin].ev_idx) for e in pedges]
    bd["end_ev"] = [int(g.node_list[e.end].ev_idx) for e in pedges]
    bd["begin_is_start"] = [bool(g.node_list[e.begin].is_start) for e in pedges]
    bd["end_is_start"] = [bool(g.node_list[e.end].is_start) for e in pedges]
    bd["graph_weight"] = [int(g.edges[e.begin, e.end]["weight"]) for e in pedges]
    bd.to_csv(os.path.join(OUT, f"{case}_breakdown.csv"), index=False)
    summ.rename("pct_of_duration").to_csv(os.path.join(OUT, f"{case}_summary.csv"), index_label="bound_by")

    if do_overlay:
        ov = {}
        tmp = tempfile.mkdtemp(dir="/tmp", prefix="cpov_")
        try:
            for tag, only_crit, all_edges in [("all_events_all_edges", False, True),
                                              ("all_events_default_edges", False, False),
                                              ("only_critical_events", True, True)]:
                t4 = time.perf_counter()
                p = ta.overlay_critical_path_analysis(rank, g, output_dir=os.path.join(tmp, tag),
                                                      only_show_critical_events=only_crit, show_all_edges=all_edges)
                ov[tag] = overlay_stats(p)
                ov[tag]["overlay_s"] = time.perf_counter() - t4
        except Exception as ex:  # noqa
            ov["error"] = f"{type(ex).__name__}: {ex}"
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        res["overlay"] = ov
    log(f"  ok: nodes={res['graph_nodes']} edges={res['graph_edges']} path_nodes={res['path_nodes']} "
        f"len={res['path_length_sum_object_weight']} cp_s={res['cp_s']:.2f}")
    write_json(case, res)
    return res


def write_json(case, res):
    with open(os.path.join(OUT, f"{case}.json"), "w") as f:
        json.dump(res, f, indent=1, default=str)


def run_trace(trace_name, trace_dir, ranks, anns, zws, do_overlay):
    log(f"=== parse {trace_name} ({trace_dir})")
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    try:
        ta = TraceAnalysis(trace_dir=trace_dir)
    except BaseException as ex:  # noqa
        parse_s = time.perf_counter() - t0
        res = {"trace": trace_name, "status": "parse failed", "parse_s": parse_s,
               "exception": f"{type(ex).__name__}: {ex}"}
        log(f"  parse failed: {ex}")
        write_json(f"{trace_name}__parse", res)
        return [res]
    parse_s = time.perf_counter() - t0
    log(f"  parsed in {parse_s:.2f}s, ranks={ta.t.get_ranks()}, "
        f"peak_rss={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss/1024:.0f}MB")
    write_json(f"{trace_name}__parse", {"trace": trace_name, "parse_s": parse_s, "ranks": ta.t.get_ranks(),
                                       "import_s": T_IMPORT, "peak_rss_mb_after_parse":
                                       resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                                       "peak_rss_mb_before_parse": rss0 / 1024,
                                       "events_per_rank": {r: int(len(ta.t.get_trace(r))) for r in ta.t.get_ranks()}})
    out = []
    for rank in ranks:
        if rank not in ta.t.get_ranks():
            log(f"  rank {rank} absent")
            continue
        for annotation, inst, note in anns:
            for zw in zws:
                out.append(run_case(ta, trace_name, rank, annotation, inst, note, zw, parse_s, do_overlay))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", nargs="*", help="trace folder names")
    ap.add_argument("--skip", nargs="*", default=[])
    ap.add_argument("--big", action="store_true", help="run only the 1 GB trace")
    ap.add_argument("--big-all", action="store_true", help="with --big: also the whole-trace case (annotation '')")
    ap.add_argument("--zw", default="1,0", help="zero-weight launch edge settings to run, e.g. 1,0")
    ap.add_argument("--no-overlay", action="store_true")
    a = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    hl = logging.getLogger("hta")
    for h in list(hl.handlers):
        hl.removeHandler(h)
    hl.addHandler(COUNTER)
    hl.setLevel(logging.WARNING)
    hl.propagate = False
    zws = [bool(int(x)) for x in a.zw.split(",")]
    log(f"python {sys.version.split()[0]} pandas {pd.__version__} networkx {nx.__version__} hta {hta.__file__} "
        f"PYTHONHASHSEED={os.environ.get('PYTHONHASHSEED')} import_s={T_IMPORT:.2f}")
    if a.big:
        os.makedirs(BIG_DIR, exist_ok=True)
        link = os.path.join(BIG_DIR, os.path.basename(BIG_SRC))
        if not os.path.exists(link):
            os.symlink(BIG_SRC, link)
        anns = [(PS, 0, ""), (PS, 1, "")] + ([("", None, "whole trace")] if a.big_all else [])
        run_trace("big1g", BIG_DIR, [0], anns, zws, False)
        return
    for name, ranks, anns in PLAN:
        if a.only and name not in a.only:
            continue
        if name in a.skip:
            continue
        run_trace(name, os.path.join(TRACES, name), ranks, anns, zws, not a.no_overlay and name not in SKIP_OVERLAY)


if __name__ == "__main__":
    main()
