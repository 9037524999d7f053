"""The table's own errors (bad arguments to create/resume, save files)."""

from __future__ import annotations


class TableError(Exception):
    """Base class of the table's own errors (bad arguments to create/resume, save files)."""


class SaveError(TableError):
    """A save file problem. The file is never written to after one of these."""


class ForeignSave(SaveError):
    """The file is not a Tee Table save."""


class CorruptSave(SaveError):
    """The file is a Tee Table save but a record is damaged or does not replay."""


class SaveVersionError(SaveError):
    """The save was written by a newer version of the program."""


class SaveInUse(SaveError):
    """Another open table (in this or another program) is writing this save file."""


class SaveExists(SaveError):
    """``Table.create`` was given a save path that already exists (it is never overwritten)."""
