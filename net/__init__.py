"""LAN play: the host/join layer that carries the table between machines.

* :mod:`net.protocol`: length-prefixed msgpack frames, the message set, strict validation.
* :mod:`net.codes`: table codes and ``teetable://HOST:PORT/KEY/CODE`` links.
* :mod:`net.secure`: the table key, the handshake's proofs and sealed seat secrets.
* :mod:`net.limits`: the host's limits and the admission of handshaking sockets.
* :mod:`net.discovery`: finding a host by code with a UDP broadcast.
* :mod:`net.host`: the asyncio server around the one table (:class:`~net.host.HostThread`).
* :mod:`net.glue`: the host's adapter over :class:`game.table.Table`.
* :mod:`net.client`: the joining side, on its own thread, talking through queues.

The wire format is documented in ``docs/protocol.md``. The headless host and the command
line are applications over this layer: :mod:`game.launch`.
"""
