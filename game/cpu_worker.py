"""The old name of :mod:`game.table.cpu` (CPU runners), kept importable."""

from game.table.cpu import CpuFailed, CpuJob, CpuRunner, ProcessCpu, SyncCpu, run_job

__all__ = ["CpuFailed", "CpuJob", "CpuRunner", "ProcessCpu", "SyncCpu", "run_job"]
