"""Where an installed Tee Table keeps its sprites and sounds (package data).

The top-level ``sprites/`` and ``sounds/`` folders of the source tree are the source of truth
(``tools/make_sprites.py`` and ``tools/make_sounds.py`` write them). Building a wheel
(``pip install .``, ``pip wheel .``) copies them here as ``game/assets_data/sprites/*.png`` and
``game/assets_data/sounds/*.wav`` (``setup.py``'s ``build_py``); in a source checkout or an
editable install this folder holds only this file and :mod:`game.client.assets` reads the
top-level folders instead. Nothing is ever written here at run time.
"""
