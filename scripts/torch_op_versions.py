#!/usr/bin/env python3
"""Writes core/models/OpVersions.inc: for each ATen operator that PyTorch 1.13.1
lacks, the first PyTorch 2.x release that has it, read off each release's
aten/src/ATen/native/native_functions.yaml. Trainscope built on 1.13 names that
release when a TorchScript module it cannot compile uses such an op (#49).

Each release's operator list comes from one of:
  --git-dir DIR   a clone of github.com/pytorch/pytorch: tag v1.13.1 and every
                  tag v2.N.0 it has (git show TAG:aten/src/ATen/native/...)
  --yaml-dir DIR  files VERSION.yaml (1.13.1.yaml, 2.0.0.yaml, ...)
  --wheels        PyPI's torch wheels, downloaded one at a time with pip
                  (the macOS arm64 wheel, about 60 MB, is the smallest) for
                  1.13.1 and every 2.N.0 `pip index versions torch` lists; the
                  wheel's torchgen/packaged/ATen/native/native_functions.yaml
                  is the same file
Run with any python3 (no PyYAML: only the `- func:` lines are read), e.g.
  python3 scripts/torch_op_versions.py --wheels
"""
import argparse
import io
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import zipfile

BASE = "1.13.1"
YAML_IN_REPO = "aten/src/ATen/native/native_functions.yaml"
YAML_IN_WHEEL = "torchgen/packaged/ATen/native/native_functions.yaml"
FUNC = re.compile(r"^- func:\s*([A-Za-z0-9_]+)(?:\.([A-Za-z0-9_]+))?\s*\((.*)\)\s*->", re.M)


def key(version):
    return tuple(int(p) for p in version.split("."))


def argument_names(arguments):
    """The names in a schema's argument list: 'Tensor self, int[1] dim=[-2,-1],
    *, str? norm=None' -> self, dim, norm."""
    names, depth, item = [], 0, ""
    for c in arguments + ",":
        depth += c in "[(" and 1 or c in "])" and -1 or 0
        if c == "," and depth == 0:
            item = item.split("=")[0].split()
            if item and item != ["*"]:
                names.append(item[-1])
            item = ""
        else:
            item += c
    return names


def ops(text):
    """The op names ('scaled_dot_product_attention'), the overloads
    ('add.Scalar') and each op's argument names, over its overloads, that a
    native_functions.yaml declares."""
    names, overloads, arguments = set(), set(), {}
    for name, overload, args in FUNC.findall(text):
        names.add(name)
        if overload:
            overloads.add(name + "." + overload)
        if overload != "out" and not overload.endswith("_out"):  # out= variants
            arguments.setdefault(name, set()).update(argument_names(args))
    if not names:
        sys.exit("torch_op_versions: no '- func:' lines: not a native_functions.yaml")
    return names, overloads, arguments


def from_git(git_dir):
    tags = subprocess.run(["git", "--git-dir", git_dir, "tag"], check=True, capture_output=True,
                          text=True).stdout.split()
    versions = [BASE] + sorted({t[1:] for t in tags if re.fullmatch(r"v2\.\d+\.0", t)}, key=key)
    for v in versions:
        yield v, subprocess.run(["git", "--git-dir", git_dir, "show", f"v{v}:{YAML_IN_REPO}"],
                                check=True, capture_output=True, text=True).stdout


def from_dir(yaml_dir):
    versions = [f[:-5] for f in os.listdir(yaml_dir) if re.fullmatch(r"\d+\.\d+\.\d+\.yaml", f)]
    for v in sorted(versions, key=key):
        with open(os.path.join(yaml_dir, v + ".yaml"), encoding="utf-8") as f:
            yield v, f.read()


def from_wheels(python):
    pip = [python, "-m", "pip"]
    listed = subprocess.run(pip + ["index", "versions", "torch"], check=True, capture_output=True,
                            text=True).stdout
    available = re.search(r"Available versions: (.*)", listed).group(1).split(", ")
    versions = [BASE] + sorted({v for v in available if re.fullmatch(r"2\.\d+\.0", v)}, key=key)
    with tempfile.TemporaryDirectory() as tmp:
        for v in versions:
            wheel = None
            for py in ("3.11", "3.10", "3.12"):
                got = subprocess.run(pip + ["download", "-q", "--no-deps", "--only-binary=:all:",
                                            "--platform", "macosx_11_0_arm64", "--platform",
                                            "macosx_14_0_arm64", "--python-version", py,
                                            f"torch=={v}", "-d", tmp])
                wheel = next((os.path.join(tmp, f) for f in os.listdir(tmp)
                              if f.startswith(f"torch-{v}-")), None)
                if got.returncode == 0 and wheel:
                    break
            if not wheel:
                sys.exit(f"torch_op_versions: no macOS arm64 wheel of torch {v}")
            with zipfile.ZipFile(wheel) as z:
                text = io.TextIOWrapper(z.open(YAML_IN_WHEEL), encoding="utf-8").read()
            os.remove(wheel)
            print(f"torch_op_versions: torch {v}", file=sys.stderr)
            yield v, text


def table(releases):
    releases = list(releases)
    if not releases or releases[0][0] != BASE:
        sys.exit(f"torch_op_versions: the first release must be {BASE}")
    base_names, base_overloads, base_arguments = ops(releases[0][1])
    first = {}  # op, op.overload or op(argument) -> "2.N"
    for version, text in releases[1:]:
        minor = ".".join(version.split(".")[:2])
        names, overloads, arguments = ops(text)
        for n in names - base_names:
            first.setdefault(n, minor)
        # A new overload of an op 1.13.1 has: 1.13.1 then compiles a call to
        # it only where another overload matches the arguments.
        for o in overloads - base_overloads:
            if o.split(".")[0] in base_names:
                first.setdefault(o, minor)
        # A new argument of an op 1.13.1 has (on any of its overloads): a
        # call passing it does not match 1.13.1's schemas.
        for n in names & base_names:
            for a in arguments.get(n, set()) - base_arguments.get(n, set()):
                first.setdefault(f"{n}({a})", minor)
    return [r[0] for r in releases], first


def write(path, versions, first, source):
    read = ", ".join(versions)
    lines = [
        "// Generated by scripts/torch_op_versions.py " + source + "; do not edit.",
        "// What PyTorch " + BASE + "'s ATen lacks, each with the first release whose",
        "// native_functions.yaml declares it: an op (NAME), a new overload of an op",
        "// " + BASE + " has (NAME.OVERLOAD), a new argument of one (NAME(ARGUMENT)).",
    ]
    lines += ["// " + l for l in textwrap.wrap(f"Releases read: {read}. {len(first)} entries, sorted "
                                               "(OpVersions.cpp searches them).", 80)]
    lines += [
        f'constexpr std::string_view kNewestReleaseRead = "{".".join(versions[-1].split(".")[:2])}";',
        "constexpr OpRelease kOpReleases[] = {",
    ]
    lines += [f'{{"{op}", "{v}"}},' for op, v in sorted(first.items())]
    lines += ["};"]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"torch_op_versions: {path}: {len(first)} ops, releases {versions[0]}..{versions[-1]}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    src = parser.add_mutually_exclusive_group(required=True)
    src.add_argument("--git-dir")
    src.add_argument("--yaml-dir")
    src.add_argument("--wheels", action="store_true")
    parser.add_argument("--python", default=sys.executable, help="the python whose pip --wheels uses")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--out", default=os.path.join(root, "core", "models", "OpVersions.inc"))
    args = parser.parse_args()
    if args.git_dir:
        releases, source = from_git(args.git_dir), "--git-dir (pytorch tags)"
    elif args.yaml_dir:
        releases, source = from_dir(args.yaml_dir), "--yaml-dir"
    else:
        releases, source = from_wheels(args.python), "--wheels (PyPI's torch wheels)"
    versions, first = table(releases)
    write(args.out, versions, first, source)


if __name__ == "__main__":
    main()
