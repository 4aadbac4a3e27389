"""Tests of the BenchExec tool-info module for Tracery.

Run with `python3 -m unittest discover -s contrib/benchexec` (or pytest) after
`pip install benchexec`.
"""

import importlib.util
import os
import stat
import sys
import tempfile
import unittest

import benchexec.result as result
from benchexec.tools.template import BaseTool2
from benchexec.util import ProcessExitCode

_HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("tracery_tool_info", os.path.join(_HERE, "tracery.py"))
tracery = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(tracery)


def run(output, value=0, signal=None, termination_reason=None):
    exit_code = ProcessExitCode.create(signal=signal) if signal else ProcessExitCode.create(value=value)
    lines = output.splitlines()
    return BaseTool2.Run(["tracery", "x.bpl"], exit_code, BaseTool2.RunOutput(lines), termination_reason)


def fake_executable(directory, name, help_lines):
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n")
        f.write('if [ "$1" = --version ]; then echo "tracery 0.1.0"; exit 0; fi\n')
        f.write('echo "Usage: tracery [OPTIONS] <FILE>"\n')
        for line in help_lines:
            f.write(f"echo '{line}'\n")
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


class DetermineResult(unittest.TestCase):
    def setUp(self):
        self.tool = tracery.Tool()

    def test_true(self):
        self.assertEqual(self.tool.determine_result(run("TRUE\n")), result.RESULT_TRUE_PROP)

    def test_false_with_property(self):
        out = "FALSE(unreach-call)\nassertion may fail at 3:5 (entry procedure main)\nerror path:\n"
        self.assertEqual(self.tool.determine_result(run(out)), result.RESULT_FALSE_REACH)
        self.assertEqual(self.tool.determine_result(run("FALSE(valid-deref)\n")), result.RESULT_FALSE_DEREF)
        self.assertEqual(self.tool.determine_result(run("FALSE\n")), result.RESULT_FALSE_PROP)

    def test_unknown(self):
        out = "UNKNOWN\nreason: unsupported: goto at 4:2\n{\"iterations\": 3}\n"
        self.assertEqual(self.tool.determine_result(run(out)), result.RESULT_UNKNOWN)

    def test_own_timeout(self):
        self.assertEqual(self.tool.determine_result(run("UNKNOWN\nreason: timeout\n")), result.RESULT_TIMEOUT)

    def test_log_lines_before_the_verdict(self):
        out = "2024-01-01 DEBUG engines: iteration 1\nTRUE\n"
        self.assertEqual(self.tool.determine_result(run(out)), result.RESULT_TRUE_PROP)

    def test_input_error(self):
        out = "x.bpl:3:7: syntax error: expected `;`\n"
        self.assertEqual(self.tool.determine_result(run(out, value=2)), "ERROR (input)")

    def test_crash(self):
        self.assertEqual(self.tool.determine_result(run("", signal=11)), "ERROR (signal 11)")

    def test_out_of_memory(self):
        out = "memory allocation of 1073741824 bytes failed\n"
        self.assertEqual(self.tool.determine_result(run(out, signal=6)), "OUT OF MEMORY")
        self.assertEqual(self.tool.determine_result(run("", signal=9, termination_reason="memory")), "OUT OF MEMORY")

    def test_killed_at_the_time_limit(self):
        self.assertEqual(self.tool.determine_result(run("", signal=9, termination_reason="cputime")), result.RESULT_TIMEOUT)

    def test_no_verdict(self):
        self.assertEqual(self.tool.determine_result(run("hello\n", value=1)), result.RESULT_ERROR)

    def test_results_are_classified_by_benchexec(self):
        for out, cls in [
            ("TRUE\n", result.RESULT_CLASS_TRUE),
            ("FALSE(unreach-call)\n", result.RESULT_CLASS_FALSE),
            ("UNKNOWN\nreason: x\n", result.RESULT_CLASS_OTHER),
        ]:
            self.assertEqual(result.get_result_classification(self.tool.determine_result(run(out))), cls)


class Statistics(unittest.TestCase):
    def test_values_from_the_json_line(self):
        tool = tracery.Tool()
        out = BaseTool2.RunOutput(["TRUE", "statistics:", "  iterations: 4", '{"iterations": 4, "time": {"smt": 0.5}}'])
        self.assertEqual(tool.get_value_from_output(out, "iterations"), "4")
        self.assertEqual(tool.get_value_from_output(out, "time.smt"), "0.5")
        self.assertIsNone(tool.get_value_from_output(out, "missing"))
        self.assertIsNone(tool.get_value_from_output(BaseTool2.RunOutput(["TRUE"]), "iterations"))


class Cmdline(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.tool = tracery.Tool()
        self.task = BaseTool2.Task.with_files(
            ["sv/mem.c"],
            property_file="../properties/valid-memsafety.prp",
            options={"language": "C", "data_model": "LP64"},
        )
        self.limits = BaseTool2.ResourceLimits(cputime=900, walltime=None, memory=None, cpu_cores=None)

    def tearDown(self):
        for name in os.listdir(self.dir):
            os.remove(os.path.join(self.dir, name))
        os.rmdir(self.dir)

    def test_today_s_options(self):
        exe = fake_executable(self.dir, "plain", ["      --timeout <SECS>", "      --json-stats"])
        self.assertEqual(
            self.tool.cmdline(exe, [], self.task, self.limits),
            [exe, "--json-stats", "--timeout", "900", "sv/mem.c"],
        )

    def test_data_model_and_property_when_listed(self):
        exe = fake_executable(self.dir, "rich", ["      --data-model <ILP32|LP64>", "      --property <NAME>"])
        self.assertEqual(
            self.tool.cmdline(exe, ["--refinement", "craig"], self.task, self.limits),
            [exe, "--refinement", "craig", "--json-stats", "--timeout", "900",
             "--data-model", "LP64", "--property", "valid-memsafety", "sv/mem.c"],
        )

    def test_given_options_win(self):
        exe = fake_executable(self.dir, "rich2", ["      --data-model <M>", "      --property <NAME>"])
        options = ["--timeout", "60", "--json-stats", "--data-model=ILP32"]
        no_limits = BaseTool2.ResourceLimits()
        task = BaseTool2.Task.with_files(["a.bpl"])
        self.assertEqual(self.tool.cmdline(exe, options, task, self.limits), [exe] + options + ["a.bpl"])
        self.assertEqual(self.tool.cmdline(exe, [], task, no_limits), [exe, "--json-stats", "a.bpl"])

    def test_version(self):
        exe = fake_executable(self.dir, "versioned", [])
        self.assertEqual(self.tool.version(exe), "0.1.0")
        self.assertEqual(self.tool.name(), "Tracery")


if __name__ == "__main__":
    sys.exit(unittest.main())
