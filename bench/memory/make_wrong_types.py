#!/usr/bin/env python3
"""Writes small allocator snapshots whose fields have the wrong types (issue
62: a snapshot whose `segments` is a string and `device_traces` a number was
shown as an empty snapshot), each beside the refusal Trainscope must give,
and one that lacks every optional field, which must still read.

    make_wrong_types.py OUT_DIR

OUT_DIR gets NAME.pickle for each case and expected.json: {NAME: the
message's text after the file name, or "" for a snapshot that must read}.
Stdlib only; the snapshots are pickled as _dump_snapshot pickles them
(protocol 4, frames and tracebacks shared), so the reader's fast path and
its memo are on the way to each wrong field.
"""
import json
import pickle
import sys
from pathlib import Path

MIB = 1024 * 1024


def base():
    """A valid one-device snapshot: four segments, a trace of eight entries."""
    main = {"name": "main", "filename": "/home/user/train.py", "line": 90}
    forward = {"name": "forward", "filename": "/home/user/model.py", "line": 12}
    traceback = [forward, main]  # shared, as PyTorch shares it
    segments, trace = [], []
    for s in range(4):
        address = 0x7F0000000000 + s * 4 * MIB
        blocks = [{"address": address, "size": MIB, "requested_size": MIB - 100,
                   "state": "active_allocated", "frames": traceback},
                  {"address": address + MIB, "size": 3 * MIB, "requested_size": 0,
                   "state": "inactive", "frames": []}]
        segments.append({"device": 0, "address": address, "total_size": 4 * MIB,
                         "allocated_size": MIB, "active_size": MIB,
                         "requested_size": MIB - 100, "stream": 0, "segment_type": "large",
                         "segment_pool_id": (0, 0), "is_expandable": False,
                         "frames": traceback, "blocks": blocks})
        trace.append({"action": "segment_alloc", "addr": address, "size": 4 * MIB,
                      "stream": 0, "time_us": 10 * s, "frames": traceback})
        trace.append({"action": "alloc", "addr": address, "size": MIB, "stream": 0,
                      "time_us": 10 * s + 1, "frames": traceback})
    return {"segments": segments, "device_traces": [trace],
            "allocator_settings": {"PYTORCH_CUDA_ALLOC_CONF": "", "max_split_size": -1,
                                   "expandable_segments": False},
            "external_annotations": []}


def setter(path, value):
    """A change that sets snapshot[path[0]][path[1]]... to value."""
    def change(s):
        at = s
        for key in path[:-1]:
            at = at[key]
        at[path[-1]] = value
    return change


def new_frames(frames):
    """A change that gives entry 5 a traceback of its own."""
    return setter(["device_traces", 0, 5, "frames"], frames)


def legacy_history(s):
    """PyTorch 1.13: a bare list of segments, blocks with a history."""
    for segment in s["segments"]:
        for block in segment["blocks"]:
            del block["address"], block["requested_size"]
            block["history"] = [{"addr": segment["address"], "real_size": "1 MiB",
                                 "frames": block.pop("frames")}]
    return s["segments"]


def without_optional(s):
    """Every field a reader can do without, left out."""
    for segment in s["segments"]:
        for key in ("requested_size", "segment_pool_id", "is_expandable", "frames", "stream"):
            del segment[key]
        for block in segment["blocks"]:
            for key in ("address", "requested_size", "frames"):
                del block[key]
    for entry in s["device_traces"][0]:
        for key in ("frames", "time_us", "stream"):
            del entry[key]
    del s["allocator_settings"], s["external_annotations"]


CASES = {
    # The file: the first wrong field in the dict's order is named.
    "segments_string_traces_number": (
        lambda s: s.update(segments="segments", device_traces=3),
        "segments is a string, expected a list"),
    "device_traces_number": (setter(["device_traces"], 3),
                             "device_traces is an int, expected a list"),
    "segments_dict": (setter(["segments"], {"0": 1}), "segments is a dict, expected a list"),
    "segment_not_a_dict": (setter(["segments", 1], []),
                           "segments[1] is a list, expected a segment"),
    "segment_without_blocks": (setter(["segments", 2], {"device": 0}),
                               "segments[2] is a dict without 'blocks' or 'total_size', "
                               "expected a segment"),
    "blocks_string": (setter(["segments", 3, "blocks"], "blocks"),
                      "segments[3].blocks is a string, expected a list"),
    "total_size_list": (setter(["segments", 2, "total_size"], [4 * MIB]),
                        "segments[2].total_size is a list, expected an int"),
    "segment_address_none": (setter(["segments", 0, "address"], None),
                             "segments[0].address is None, expected an int"),
    "segment_type_int": (setter(["segments", 1, "segment_type"], 1),
                         "segments[1].segment_type is an int, expected a string"),
    "segment_pool_id_string": (setter(["segments", 0, "segment_pool_id"], "0,0"),
                               "segments[0].segment_pool_id is a string, expected a tuple "
                               "of two ints"),
    "segment_pool_id_member": (setter(["segments", 0, "segment_pool_id"], (0, "pool")),
                               "segments[0].segment_pool_id[1] is a string, expected an int"),
    "block_not_a_dict": (setter(["segments", 0, "blocks", 1], 7),
                         "segments[0].blocks[1] is an int, expected a block"),
    "block_size_string": (setter(["segments", 1, "blocks", 1, "size"], "3 MiB"),
                          "segments[1].blocks[1].size is a string, expected an int"),
    "block_state_int": (setter(["segments", 2, "blocks", 0, "state"], 1),
                        "segments[2].blocks[0].state is an int, expected a string"),
    "block_frames_dict": (setter(["segments", 2, "blocks", 0, "frames"], {"a": 1}),
                          "segments[2].blocks[0].frames is a dict, expected a list"),
    "device_trace_string": (lambda s: s["device_traces"].append("device 1"),
                            "device_traces[1] is a string, expected a list"),
    "entry_not_a_dict": (setter(["device_traces", 0, 2], 5),
                         "device_traces[0][2] is an int, expected a trace entry"),
    "entry_without_action": (setter(["device_traces", 0, 3], {"addr": 0, "size": 1}),
                             "device_traces[0][3] is a dict without 'action', expected a "
                             "trace entry"),
    "entry_action_int": (setter(["device_traces", 0, 1, "action"], 3),
                         "device_traces[0][1].action is an int, expected a string"),
    "entry_size_string": (setter(["device_traces", 0, 4, "size"], "1048576"),
                          "device_traces[0][4].size is a string, expected an int"),
    "entry_addr_dict": (setter(["device_traces", 0, 6, "addr"], {}),
                        "device_traces[0][6].addr is a dict, expected an int"),
    "entry_time_none": (setter(["device_traces", 0, 7, "time_us"], None),
                        "device_traces[0][7].time_us is None, expected an int"),
    "entry_frames_string": (setter(["device_traces", 0, 3, "frames"], "model.py:12"),
                            "device_traces[0][3].frames is a string, expected a list"),
    "frame_not_a_dict": (new_frames(["model.py:12:forward"]),
                         "device_traces[0][5].frames[0] is a string, expected a frame"),
    "frame_without_filename": (new_frames([{"name": "forward", "line": 12}]),
                               "device_traces[0][5].frames[0] is a dict without 'filename', "
                               "expected a frame"),
    "frame_line_string": (new_frames([{"name": "f", "filename": "m.py", "line": 1},
                                      {"name": "forward", "filename": "m.py", "line": "12"}]),
                          "device_traces[0][5].frames[1].line is a string, expected an int"),
    # A frame every traceback shares: named where the reader first meets it.
    "shared_frame_name_int": (setter(["segments", 0, "frames", 0, "name"], 12),
                              "segments[0].frames[0].name is an int, expected a string"),
    "allocator_settings_list": (setter(["allocator_settings"], []),
                                "allocator_settings is a list, expected a dict"),
    "external_annotations_int": (setter(["external_annotations"], 0),
                                 "external_annotations is an int, expected a list"),
    "legacy_history_size_string": (legacy_history,
                                   "segments[0].blocks[0].history[0].real_size is a string, "
                                   "expected an int"),
    "without_optional_fields": (without_optional, ""),
}


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    expected = {}
    for name, (change, message) in CASES.items():
        snapshot = base()
        changed = change(snapshot)
        with open(out / f"{name}.pickle", "wb") as f:
            pickle.dump(changed if isinstance(changed, list) else snapshot, f, protocol=4)
        expected[name] = message
    (out / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")


if __name__ == "__main__":
    main()
