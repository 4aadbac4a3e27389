# BenchExec tool-info module for Tracery, a software model checker by trace abstraction.
#
# SPDX-License-Identifier: MIT
#
# Install: put this file (or a symbolic link to it) into BenchExec's `benchexec/tools/` folder
# and name the tool `tracery` in the benchmark definition. See README.md beside this file.

import functools
import json
import re
import subprocess

import benchexec.result as result
import benchexec.tools.template

_FALSE_WITH_PROPERTY = re.compile(r"FALSE\((?P<property>[^()]*)\)")


@functools.lru_cache(maxsize=None)
def _help_text(executable):
    """The output of `EXECUTABLE --help` (empty if it cannot be run)."""
    try:
        process = subprocess.run(
            [executable, "--help"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            universal_newlines=True,
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return process.stdout or ""


def _lists_option(executable, option):
    """Whether the executable's --help lists OPTION as a whole word."""
    pattern = r"(?<![\w-])" + re.escape(option) + r"(?![\w-])"
    return re.search(pattern, _help_text(executable)) is not None


def _property_name(property_file):
    """`../properties/unreach-call.prp` -> `unreach-call`."""
    name = re.split(r"[/\\]", str(property_file))[-1]
    return name[: -len(".prp")] if name.endswith(".prp") else name


def _has_option(options, option):
    return any(o == option or o.startswith(option + "=") for o in options)


class Tool(benchexec.tools.template.BaseTool2):
    """
    Tool info for Tracery (trace abstraction with interpolant automata).

    Tracery prints exactly `TRUE`, `FALSE(<property>)` or `UNKNOWN` on its first line of
    stdout, then the evidence (for UNKNOWN a line `reason: ...`); with `--json-stats` its last
    line is a JSON object of statistics. It exits with 0 for any verdict and with 2 for an
    input error (syntax or type error).
    """

    def executable(self, tool_locator):
        # The tool directory (or PATH, or the current directory) may hold the binary itself, or
        # be a Cargo checkout with the binary in target/release.
        try:
            return tool_locator.find_executable("tracery")
        except benchexec.tools.template.ToolNotFoundException:
            return tool_locator.find_executable("tracery", subdir="target/release")

    def name(self):
        return "Tracery"

    def version(self, executable):
        return self._version_from_tool(executable, line_prefix="tracery")

    def cmdline(self, executable, options, task, rlimits):
        options = list(options)
        cmd = [executable] + options
        if not _has_option(options, "--json-stats"):
            cmd += ["--json-stats"]
        if rlimits.cputime and not _has_option(options, "--timeout"):
            cmd += ["--timeout", str(rlimits.cputime)]
        task_options = task.options if isinstance(task.options, dict) else {}
        data_model = task_options.get("data_model")
        if (
            data_model
            and not _has_option(options, "--data-model")
            and _lists_option(executable, "--data-model")
        ):
            cmd += ["--data-model", data_model]
        if (
            task.property_file
            and not _has_option(options, "--property")
            and _lists_option(executable, "--property")
        ):
            cmd += ["--property", _property_name(task.property_file)]
        return cmd + [task.single_input_file]

    def determine_result(self, run):
        verdict = None
        reason = None
        for line in run.output:
            line = line.strip()
            if verdict is None:
                if line == "TRUE":
                    return result.RESULT_TRUE_PROP
                if line == "FALSE":
                    return result.RESULT_FALSE_PROP
                match = _FALSE_WITH_PROPERTY.fullmatch(line)
                if match:
                    return f"{result.RESULT_FALSE_PROP}({match.group('property')})"
                if line == "UNKNOWN":
                    verdict = "UNKNOWN"
            elif line.startswith("reason:"):
                reason = line[len("reason:") :].strip()
                break
        if verdict == "UNKNOWN":
            if reason and reason.lower().startswith("timeout"):
                return result.RESULT_TIMEOUT
            return result.RESULT_UNKNOWN
        if run.was_timeout:
            return result.RESULT_TIMEOUT
        if run.termination_reason == "memory" or any(
            "memory allocation of" in line or "out of memory" in line.lower()
            for line in run.output
        ):
            return "OUT OF MEMORY"
        if run.exit_code.signal:
            return f"ERROR (signal {run.exit_code.signal})"
        if run.exit_code.value == 2:
            return "ERROR (input)"
        return result.RESULT_ERROR

    def get_value_from_output(self, output, identifier):
        """A statistic from the `--json-stats` line: `identifier` is a key, or keys joined by
        dots for nested objects."""
        for line in reversed(output):
            line = line.strip()
            if not (line.startswith("{") and line.endswith("}")):
                continue
            try:
                value = json.loads(line)
            except ValueError:
                continue
            for key in identifier.split("."):
                if not isinstance(value, dict) or key not in value:
                    return None
                value = value[key]
            return value if isinstance(value, str) else json.dumps(value)
        return None
