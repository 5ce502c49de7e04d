#!/usr/bin/env python3
"""Runs the steps of loopgate's GitHub Action (action.yml) in order, locally, as a runner would.

    scripts/action-local.py --workspace REPO --base-ref main [--input install=/path/to/loopgate] [--input k=v]...
                            [--artifacts DIR]

Sets GitHub's environment (GITHUB_ACTIONS, GITHUB_WORKSPACE, GITHUB_BASE_REF, GITHUB_STEP_SUMMARY, GITHUB_OUTPUT
per step, GITHUB_ACTION_PATH, RUNNER_TEMP, GITHUB_ENV), runs each `run` step with its `shell` and `env` in the
workspace, reads each step's outputs back for the steps after it, stands in for `actions/upload-artifact` by
copying its path into --artifacts, and evaluates the expressions the action keeps to (inputs.*, steps.*.outputs.*,
github.*, runner.*; `if: always()`). A `run` step that fails stops the job, as on GitHub; later `if: always()`
steps still run.

Prints one JSON object: {"outputs": the action's outputs, "summary": the step summary's text, "stdout": every
step's output, "exit": the job's exit code (0 when every step passed), "artifacts": the files uploaded}. The
test tests/cli/action.rs runs it on a real repository and checks the summary and the outputs.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def evaluate(expr, context):
    """One expression of the subset the action uses; anything else is an error, so the action cannot drift
    past what this runner checks."""
    expr = expr.strip()
    if expr == "always()":
        return True
    parts = expr.split(".")
    if parts[0] == "inputs" and len(parts) == 2:
        return context["inputs"].get(parts[1], "")
    if parts[0] == "steps" and len(parts) == 4 and parts[2] == "outputs":
        return context["steps"].get(parts[1], {}).get(parts[3], "")
    if parts[0] in ("github", "runner") and len(parts) == 2:
        return context[parts[0]][parts[1]]
    raise SystemExit(f"action-local: expression `{expr}` is outside the subset this runner evaluates")


def substitute(text, context):
    if not isinstance(text, str):
        return text
    return EXPRESSION.sub(lambda m: str(evaluate(m.group(1), context)), text)


def condition(step, context, failed):
    cond = step.get("if")
    if cond is None:
        return not failed
    cond = cond.strip()
    match = EXPRESSION.fullmatch(cond)
    return bool(evaluate(match.group(1) if match else cond, context))


def read_outputs(path):
    """GitHub's output file: `key=value` lines and `key<<DELIM` heredocs."""
    outputs = {}
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            key, delim = line.split("<<", 1)
            value = []
            i += 1
            while i < len(lines) and lines[i] != delim:
                value.append(lines[i])
                i += 1
            outputs[key] = "\n".join(value)
        elif "=" in line:
            key, value = line.split("=", 1)
            outputs[key] = value
        i += 1
    return outputs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--action", default=os.path.join(os.path.dirname(__file__), "..", "action.yml"))
    parser.add_argument("--workspace", required=True)
    parser.add_argument("--base-ref", default="")
    parser.add_argument("--input", action="append", default=[])
    parser.add_argument("--artifacts", default=None)
    args = parser.parse_args()

    action_path = os.path.abspath(args.action)
    with open(action_path, encoding="utf-8") as f:
        action = yaml.safe_load(f)
    if action.get("runs", {}).get("using") != "composite":
        raise SystemExit("action-local: action.yml is not a composite action")

    temp = tempfile.mkdtemp(prefix="loopgate-action-")
    artifacts = args.artifacts or os.path.join(temp, "artifacts")
    os.makedirs(artifacts, exist_ok=True)
    summary = os.path.join(temp, "step_summary.md")
    open(summary, "w").close()
    inputs = {name: str(spec.get("default", "")) for name, spec in action.get("inputs", {}).items()}
    for pair in args.input:
        key, value = pair.split("=", 1)
        if key not in inputs:
            raise SystemExit(f"action-local: action.yml has no input `{key}`")
        inputs[key] = value
    context = {
        "inputs": inputs,
        "steps": {},
        "github": {"action_path": os.path.dirname(action_path), "base_ref": args.base_ref,
                   "workspace": os.path.abspath(args.workspace)},
        "runner": {"temp": temp},
    }
    base_env = dict(os.environ)
    base_env.update({
        "GITHUB_ACTIONS": "true",
        "CI": "true",
        "GITHUB_WORKSPACE": os.path.abspath(args.workspace),
        "GITHUB_BASE_REF": args.base_ref,
        "GITHUB_EVENT_NAME": "pull_request" if args.base_ref else "push",
        "GITHUB_STEP_SUMMARY": summary,
        "GITHUB_ACTION_PATH": os.path.dirname(action_path),
        "GITHUB_ENV": os.path.join(temp, "env"),
        "RUNNER_TEMP": temp,
    })
    stdout = []
    failed = False
    exit_code = 0
    uploaded = []
    for n, step in enumerate(action["runs"]["steps"]):
        if not condition(step, context, failed):
            continue
        env = dict(base_env)
        env.update({k: str(substitute(v, context)) for k, v in (step.get("env") or {}).items()})
        if "uses" in step:
            if not step["uses"].startswith("actions/upload-artifact@"):
                raise SystemExit(f"action-local: no stand-in for `{step['uses']}`")
            path = substitute(step["with"]["path"], context)
            if os.path.exists(path):
                name = substitute(step["with"]["name"], context)
                target = os.path.join(artifacts, name)
                os.makedirs(target, exist_ok=True)
                shutil.copy(path, target)
                uploaded.append(os.path.join(name, os.path.basename(path)))
            elif step["with"].get("if-no-files-found", "warn") == "error":
                failed, exit_code = True, 1
            continue
        if step.get("shell") != "bash":
            raise SystemExit(f"action-local: step {n} runs without `shell: bash`")
        output_file = os.path.join(temp, f"output-{n}")
        open(output_file, "w").close()
        env["GITHUB_OUTPUT"] = output_file
        script = os.path.join(temp, f"step-{n}.sh")
        with open(script, "w", encoding="utf-8") as f:
            f.write(substitute(step["run"], context))
        # GitHub runs `bash --noprofile --norc -eo pipefail {0}` for `shell: bash`.
        ran = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script],
                             cwd=args.workspace, env=env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        stdout.append(ran.stdout)
        if "id" in step:
            context["steps"][step["id"]] = read_outputs(output_file)
        if ran.returncode != 0:
            failed, exit_code = True, ran.returncode
    outputs = {name: substitute(spec["value"], context) for name, spec in action.get("outputs", {}).items()}
    with open(summary, encoding="utf-8") as f:
        summary_text = f.read()
    json.dump({"outputs": outputs, "summary": summary_text, "stdout": "".join(stdout), "exit": exit_code,
               "artifacts": uploaded}, sys.stdout)
    sys.stdout.write("\n")
    shutil.rmtree(temp, ignore_errors=True)


if __name__ == "__main__":
    main()
