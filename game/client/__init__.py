"""The pygame client: a stack of scenes over the table (architecture principles 8 and 9).

Start it with ``game.client.app.run(size, fullscreen, frames=0, data=None, join=None)``.

Modules: ``app`` (window, loop, scene stack, settings, starting/joining tables), ``scene``
(the scene base), ``widgets`` (buttons, choices, toggles, sliders, text input, lists, focus),
``assets`` (the one cached loader), ``theme`` (colours, sizes), ``screens`` (title, new table,
join, settings, records, rules), ``lobby``, ``table_scene`` (the track table), ``layout_scene``
(the Trash table), ``board`` (track board geometry, hit-testing, drawing), ``anim`` (table
clock, tweens, event timeline), ``session`` (a local table) and ``net_session`` (a LAN table,
hosted or joined), ``testing`` and ``shots`` (driving the loop for tests and screenshots).
"""
