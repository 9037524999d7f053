"""Bad input never crashes the table and a refusal changes nothing (Hypothesis)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from test_table_support import FakeClock, RandomCpu

from game.table import Result, SeatSpec, Table

JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 12), st.text(max_size=8),
    st.sampled_from(["easy", "nasty", "blitz", "AS", "S", "D", "W1", "tricky", "é€", "\x00"]),
    st.lists(st.integers(0, 3), max_size=2), st.floats(allow_nan=True),
)
WHO = st.sampled_from(["host", "seat0", "seat1", "seat2", "junk", "cpu", *["mover"] * 6])
INTENTS = st.sampled_from([
    "submit", "pause", "ready", "set_speed", "set_cpu", "take_seat", "sit", "leave", "start",
    "connect", "disconnect", "hand_to_cpu", "undo", "tap_in", "tick",
    "set_turn_clock", "set_pause_limit", "end_pause", "remove", "allow", "come_back",
    *["submit"] * 8, *["tick"] * 4,  # mostly plays, so that games move along
])


def _token(t: Table, who: str, junk: object) -> object:
    if who == "mover":
        mover = t.to_move()
        return t.token(mover) if mover is not None else junk
    return {"host": t.host_token, "seat0": t.token(0), "seat1": t.token(1),
            "seat2": t.token(2), "cpu": t.token(3)}.get(who, junk)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.tuples(INTENTS, WHO, JUNK, JUNK, st.floats(0, 30)),
                      min_size=30, max_size=80),
       game=st.sampled_from(["track", "layout"]), started=st.booleans())
def test_random_intents_never_raise_and_refusals_change_nothing(
    tmp_path_factory: object, steps: list, game: str, started: bool
) -> None:
    path = Path(tmp_path_factory.mktemp("fuzz")) / "t.tee"  # type: ignore[attr-defined]
    clock = FakeClock()
    config = {"rules": "classic", "seats": 4} if game == "track" else {"seats": 4}
    seats = [SeatSpec("person", "Ann", local=True), SeatSpec("person", "Bob"),
             SeatSpec("person", "Cy", local=True), SeatSpec("cpu")]
    t = Table.create(game, config, 3, seats, clock=clock, host_seat=0, save_path=path,
                     cpu=RandomCpu(), fsync=False)
    if started:
        t.connect(t.token(1))
        t.ready(t.token(1))
        assert t.start(t.host_token).ok
    for intent, who, a, b, dt in steps:
        clock.advance(dt)
        tok = _token(t, who, a)
        before = (t.state_no, t.log, t.public(), path.read_bytes())
        if intent == "tick":
            t.tick()
            continue
        if intent == "submit":
            legal = t.rules.legal_tokens(t.state) if t.to_move() is not None else []
            play = legal[0] if legal and (a is None or isinstance(a, bool | int)) else a
            r = t.submit(tok, play, b if isinstance(b, str | float | list) else t.state_no)
        elif intent in ("pause", "ready", "start", "connect", "disconnect", "undo", "tap_in",
                        "leave", "end_pause", "come_back"):
            r = getattr(t, intent)(tok)
        elif intent in ("set_turn_clock", "set_pause_limit", "remove", "allow"):
            r = getattr(t, intent)(tok, a)
        elif intent == "set_speed":
            r = t.set_speed(tok, b)
        elif intent in ("set_cpu", "hand_to_cpu"):
            r = getattr(t, intent)(tok, a, b)
        elif intent == "take_seat":
            r = t.take_seat(a, b)
        else:
            r = t.sit(a)
        assert isinstance(r, Result) and r.code and r.message
        event(f"{intent}: {r.code}")
        if not r.ok:
            assert r.code != "ok"
            assert (t.state_no, t.log, t.public(), path.read_bytes()) == before, (intent, r)
    event(f"plays made: {min(t.state_no, 5)}+")
    assert t.state_no == len(t.log)  # no undo outside solo: one state number per play
    t.close()
    # whatever happened, the save replays to the same table
    again = Table.resume(path, clock=clock)
    assert again.log == t.log and again.state_no == t.state_no
    assert [again.token(i) for i in range(4)] == [t.token(i) for i in range(4)]
    assert again.public()["seats"] == [
        {**s, "connected": again.public()["seats"][i]["connected"],
         "ready": again.public()["seats"][i]["ready"],
         "standin": again.public()["seats"][i]["standin"]}
        for i, s in enumerate(t.public()["seats"])
    ]
