"""The pygame client: a stack of scenes over the table (architecture principles 8 and 9).

Start it with ``game.client.app.run(size, fullscreen, frames=0, data=None, join=None,
host=None)`` (``host``: the launcher's argparse Namespace; ``--host`` without ``--headless``
opens straight into hosting a table built from the host options, ``--resume SAVE`` reopens a
saved one, ``--name`` is the person's name for that run).

Modules: ``app`` (window, loop, scene stack, settings, starting/joining tables; it implements
``stage``, the protocol scenes talk to, and owns ``router``, which maps screen names and
sessions to scene classes), ``scene`` (the scene base), ``table_base`` (what both tables
share), ``choice`` (the track choice in progress, pygame-free), ``widgets`` (buttons, choices,
toggles, sliders, text input, lists, focus), ``assets`` (the one cached loader), ``theme``
(colours, sizes), ``screens`` (title, new table, join, settings, records, rules), ``lobby``,
``table_scene`` (the track table), ``layout_scene`` (the Trash table), ``board`` (track board
geometry, hit-testing, drawing), ``anim`` (the timeline's clock, tweens, event animations),
``session`` (a local table) and ``net_session`` (a LAN table, hosted or joined),
``describe`` (track plays in words), ``hints`` (the H key's worker), ``saves`` (hosted
tables' save files for Reopen a saved table, and joined seats' tokens so a relaunched program
rejoins its own seat), ``e2e`` (the test hook). No scene module imports the app or another
scene module (``tests/test_client_imports.py``).

End-to-end test hook: set the environment variable ``TEE_TABLE_E2E_DIR`` to a folder and the
client (a) rewrites ``<dir>/status.json`` atomically (temporary file + rename) at most every
0.25 s after a drawn frame: the scene name and stack; when a table is open its game, phase,
state number, whose turn and whether it is this screen's person's, the pause reasons with who
paused, the table speed, each seat's name, kind, level and connection (connected/dropped),
this person's seat(s), the legal play tokens when it is their turn, the hint, the outcome and
points when over; when hosting the code, link and port; and the message shown now and the last
one shown; the scene stack with each scene's buttons and choices (window rectangles, labels,
focus), the Join box's text, the board's highlighted pegs and holes (positions and play
tokens), whether animations play and the banners shown (what the end-to-end test drives the
real window by; ``TEE_TABLE_E2E_INTERVAL`` sets the write interval); and (b) saves a
screenshot ``<dir>/shot-<name>.png`` whenever a file ``<dir>/shot-request-<name>`` appears
(then deletes the request). Every key is described in
:mod:`game.client.e2e`. Without the variable nothing is written.
"""
