"""Writes rank0.json and rank1.json: two ranks of a PyTorch 2 NCCL job with two
process groups ("0", the data-parallel group, and "1"), whose all_reduce calls
(number 7 of each group) are issued from two threads in the opposite order on
the two ranks. record_param_comms and the NCCL kernels carry the collective's
args as Kineto writes them ("Collective name", "Process Group Name", "Process
Group Ranks", "Seq"). Run: python3 make_traces.py (standard library only)."""
import json


def trace(rank, calls):
    events = []
    next_id = [100]

    def new_id():
        next_id[0] += 1
        return next_id[0]

    events.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#4", "pid": 1,
                   "tid": 1, "ts": 1000, "dur": 200, "args": {"External id": new_id()}})
    correlation = 500
    for group, seq, tid, ts, dur, kernel_dur in calls:
        meta = {"Collective name": "allreduce", "dtype": "Float", "In msg nelems": 1000,
                "Out msg nelems": 1000, "Group size": 2, "Process Group Name": group,
                "Process Group Description": "default_pg" if group == "0" else "undefined",
                "Process Group Ranks": "[0, 1]", "Rank": rank, "Seq": seq}
        host = {"pid": 1, "tid": tid}
        events.append({"ph": "X", "cat": "cpu_op", "name": "c10d::allreduce_", **host, "ts": ts,
                       "dur": dur, "args": {"External id": new_id(), "Input Dims": [[], []],
                                            "Input type": ["TensorList", ""]}})
        events.append({"ph": "X", "cat": "cpu_op", "name": "record_param_comms", **host,
                       "ts": ts + 1, "dur": dur - 2, "args": {**meta, "External id": new_id()}})
        events.append({"ph": "X", "cat": "user_annotation", "name": "nccl:all_reduce", **host,
                       "ts": ts + 2, "dur": dur - 4,
                       "args": {"External id": new_id(), "Input Dims": [[1000]],
                                "Input type": ["float"]}})
        correlation += 1
        launch = new_id()
        events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", **host,
                       "ts": ts + 3, "dur": 2,
                       "args": {"correlation": correlation, "External id": launch}})
        events.append({"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL",
                       "pid": 0, "tid": 20 + tid, "ts": ts + 6, "dur": kernel_dur,
                       "args": {**meta, "device": 0, "stream": 20 + tid, "correlation": correlation,
                                "External id": launch, "grid": [2, 1, 1], "block": [512, 1, 1]}})
    events.append({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 1100,
                   "dur": 50, "args": {"External id": new_id()}})
    return {"schemaVersion": 1,
            "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3",
                                  "totalGlobalMem": 85045526528, "computeMajor": 9,
                                  "computeMinor": 0, "numSms": 132,
                                  "maxThreadsPerMultiprocessor": 2048}],
            "distributedInfo": {"backend": "nccl", "rank": rank, "world_size": 2, "pg_count": 2},
            "traceEvents": events}


# (group, Seq, thread, start us, host duration, kernel duration)
ranks = {0: [("0", 7, 2, 1010, 30, 20), ("1", 7, 3, 1050, 20, 10)],
         1: [("1", 7, 3, 1005, 40, 30), ("0", 7, 2, 1060, 12, 5)]}
for rank, calls in ranks.items():
    with open(f"rank{rank}.json", "w") as f:
        json.dump(trace(rank, calls), f)
        f.write("\n")
