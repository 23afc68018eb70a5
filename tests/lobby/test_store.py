"""The lobby's SQLite store: every method round-trips and ratings are openskill's (the
file, durable and shared, and hostile text: :mod:`tests.lobby.test_store_file`)."""

from __future__ import annotations

import itertools
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from tests.lobby.store_support import seat, table
from unotui.lobby import schema
from unotui.lobby.ratings import BOT_RATINGS, DEFAULT_RATING
from unotui.lobby.sqlite_store import SqliteStore
from unotui.lobby.store import LobbyStore, Placing, TableRow


def test_is_a_lobby_store(store: SqliteStore) -> None:
    checked: LobbyStore = store
    assert isinstance(checked, LobbyStore)
    with SqliteStore(":memory:") as memory:
        assert isinstance(memory, LobbyStore)
        memory.set_motd("hi")
        assert memory.motd() == "hi"


# ----- tables -------------------------------------------------------------------------------


def test_tables_round_trip_replace_and_drop(store: SqliteStore) -> None:
    row = TableRow("ABCD", "Ada's", 6, 2, 3, "modern", "waiting", False, None, 5.5)
    store.put_table(row)
    assert store.tables() == [row]
    playing = TableRow("ABCD", "Ada's", 6, 3, 3, "modern", "playing", False, 12.5, 5.5)
    store.put_table(playing)
    assert store.tables() == [playing]
    store.drop_table("ABCD")
    store.drop_table("ABCD")
    assert store.tables() == []


def test_tables_order_waiting_first_then_oldest_and_private_hidden(store: SqliteStore) -> None:
    for row in [
        table("P1", "playing", 1),
        table("W2", "waiting", 4),
        table("O1", "over", 0),
        table("W1", "waiting", 3),
        table("X1", "waiting", 2, private=True),
    ]:
        store.put_table(row)
    assert [t.code for t in store.tables()] == ["W1", "W2", "O1", "P1"]
    assert [t.code for t in store.tables(include_private=True)] == ["X1", "W1", "W2", "O1", "P1"]
    assert store.tables(include_private=True)[0].private is True


@pytest.mark.parametrize(
    ("status", "humans", "bots"), [("started", 1, 1), ("waiting", 4, 1), ("waiting", -1, 0)]
)
def test_bad_table_rows_are_refused(status: str, humans: int, bots: int) -> None:
    with pytest.raises(ValueError):
        TableRow("C", "n", 4, humans, bots, "r", status, False, None, 0.0)


# ----- presence -----------------------------------------------------------------------------


def test_presence_round_trip(store: SqliteStore) -> None:
    store.set_presence("SHA256:a", "zed", "lobby")
    store.set_presence("guest:1", "Bob", "ABCD")
    store.set_presence("SHA256:c", "alice", "lobby")
    assert store.online() == [("alice", "lobby"), ("Bob", "ABCD"), ("zed", "lobby")]
    store.set_presence("SHA256:a", "zed", "WXYZ")
    assert ("zed", "WXYZ") in store.online() and len(store.online()) == 3
    store.clear_presence("guest:1")
    store.clear_presence("nobody")
    assert store.online() == [("alice", "lobby"), ("zed", "WXYZ")]
    assert store.clear_all_presence() == 2
    assert store.online() == []


def test_presence_survives_a_crash_until_cleared(path: Path) -> None:
    """A lobby process that dies without closing leaves its presence rows; the next
    start-up clears them."""
    code = (
        "import os, sys\n"
        "from unotui.lobby.sqlite_store import SqliteStore\n"
        "from unotui.lobby.store import TableRow\n"
        "s = SqliteStore(sys.argv[1])\n"
        "s.set_presence('SHA256:x', 'ghost', 'lobby')\n"
        "s.put_table(TableRow('T', 't', 2, 1, 0, 'r', 'playing', False, None, 1.0))\n"
        "os._exit(9)\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(path)], check=False)
    assert done.returncode == 9
    with SqliteStore(path) as store:
        assert store.online() == [("ghost", "lobby")]
        assert [t.code for t in store.tables()] == ["T"]
        assert store.clear_all_presence() == 1
        assert store.online() == []


# ----- identities, stats, ratings ---------------------------------------------------------


def test_unknown_identity_has_no_stats_and_remembered_one_has_zero_games(store: SqliteStore) -> None:
    assert store.stats("SHA256:new") is None
    assert store.remember_name("SHA256:new", "Ada") == "Ada"
    stats = store.stats("SHA256:new")
    assert stats is not None
    assert (stats.name, stats.games, stats.wins, stats.points) == ("Ada", 0, 0, 0)
    assert (stats.mu, stats.sigma) == (DEFAULT_RATING.mu, DEFAULT_RATING.sigma)
    assert stats.rating == pytest.approx(0.0, abs=1e-9)
    assert store.leaderboard() == []


def test_record_result_counts_games_wins_points_and_returns_stats(store: SqliteStore) -> None:
    after = store.record_result(
        "T1", [seat("Ada", 1, "k:ada", points=120), seat("Bob", 2, "k:bob"), seat("bot", 3, bot="easy")]
    )
    assert [s.identity for s in after] == ["k:ada", "k:bob"]
    ada = store.stats("k:ada")
    bob = store.stats("k:bob")
    assert ada is not None and bob is not None
    assert (ada.name, ada.games, ada.wins, ada.points) == ("Ada", 1, 1, 120)
    assert (bob.games, bob.wins, bob.points) == (1, 0, 0)
    assert after == [ada, bob]
    store.record_result("T2", [seat("Ada", 2, "k:ada", points=5), seat("Bobby", 1, "k:bob", points=50)])
    ada, bob = store.stats("k:ada"), store.stats("k:bob")
    assert ada is not None and bob is not None
    assert (ada.games, ada.wins, ada.points) == (2, 1, 125)
    assert (bob.name, bob.games, bob.wins, bob.points) == ("Bob", 2, 1, 50)  # a key keeps its name


def test_a_key_is_known_by_the_name_it_first_came_with(store: SqliteStore) -> None:
    """``ssh carol@HOST`` with alice's key is alice: the name stays, the leaderboard has
    one row for the key, under that name, with every match it played."""
    assert store.remember_name("SHA256:alice", "alice") == "alice"
    assert store.remember_name("SHA256:alice", "carol") == "alice"
    store.record_result("T1", [seat("carol", 1, "SHA256:alice", points=50), seat("bot", 2, bot="easy")])
    store.record_result("T2", [seat("alice", 1, "SHA256:alice", points=20), seat("bot", 2, bot="easy")])
    [row] = store.leaderboard()
    assert (row.identity, row.name, row.games, row.wins, row.points) == ("SHA256:alice", "alice", 2, 2, 70)
    assert store.remember_name("SHA256:new", "carol") == "carol"  # another key may come as carol


def test_a_match_recorded_twice_under_its_name_counts_once(store: SqliteStore) -> None:
    placings = [seat("Ada", 1, "k:ada", points=40), seat("Bob", 2, "k:bob")]
    first = store.record_result("T1", placings, "T1:abc")
    again = store.record_result("T1", placings, "T1:abc")
    assert again == first and [s.games for s in first] == [1, 1]
    assert len(store.recent_matches(10)) == 1
    store.record_result("T1", placings, "T1:def")  # another match at the same table
    store.record_result("T1", placings)  # no name: always counted
    ada = store.stats("k:ada")
    assert ada is not None and (ada.games, ada.points) == (3, 120)


def test_a_version_1_file_gains_match_names_and_keeps_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    for statement in schema._STEPS[0]:
        conn.execute(statement)
    conn.execute("INSERT INTO matches (table_code, finished) VALUES ('OLD', 1.0)")
    conn.commit()
    conn.close()
    with SqliteStore(path) as store:
        store.record_result("NEW", [seat("Ada", 1, "k:ada"), seat("Bob", 2)], "NEW:1")
        store.record_result("NEW", [seat("Ada", 1, "k:ada"), seat("Bob", 2)], "NEW:1")
        assert [m.table for m in store.recent_matches(10)] == ["NEW", "OLD"]


def test_ratings_are_what_openskill_computes(store: SqliteStore) -> None:
    """Guests enter as newcomers and bots at their level's anchor; only keys keep theirs."""
    model = PlackettLuce()
    hard = BOT_RATINGS["hard"]
    a, b = model.rating(), model.rating()
    match1 = [seat("A", 2, "k:a"), seat("guest", 1), seat("bot", 4, bot="hard"), seat("B", 3, "k:b")]
    teams = [[a], [model.rating()], [model.rating(mu=hard.mu, sigma=hard.sigma)], [b]]
    [[a], _, _, [b]] = model.rate(teams, ranks=[2, 1, 4, 3])
    store.record_result("T", match1)
    match2 = [seat("B", 1, "k:b"), seat("A", 1, "k:a"), seat("guest 2", 3)]
    [[b], [a], _] = model.rate([[b], [a], [model.rating()]], ranks=[1, 1, 3])
    store.record_result("T", match2)
    for ident, want in (("k:a", a), ("k:b", b)):
        got = store.stats(ident)
        assert got is not None
        assert got.mu == pytest.approx(want.mu, abs=1e-9)
        assert got.sigma == pytest.approx(want.sigma, abs=1e-9)
        assert got.rating == pytest.approx(want.ordinal(), abs=1e-9)


def test_leaderboard_order_after_several_matches(store: SqliteStore) -> None:
    for i in range(6):
        store.record_result(
            f"T{i}",
            [
                seat("Winner", 1, "k:w"),
                seat("Middle", 2, "k:m"),
                seat("guest", 3),
                seat("Loser", 4, "k:l"),
            ],
        )
    store.record_result("once", [seat("Lucky", 1, "k:once"), seat("bot", 2, bot="medium")])
    store.remember_name("k:idle", "Idle")  # no game: not on the board
    board = store.leaderboard()
    assert [s.name for s in board] == ["Winner", "Middle", "Lucky", "Loser"]
    assert all(x.rating >= y.rating for x, y in itertools.pairwise(board))
    assert [s.name for s in store.leaderboard(limit=2)] == ["Winner", "Middle"]
    assert "guest" not in {s.name for s in board} and "bot" not in {s.name for s in board}


def test_leaderboard_ties_break_by_name(store: SqliteStore) -> None:
    """Two players with the same history have the same rating: shown by name."""
    for name in ("Zoe", "Amy"):
        store.record_result("T", [seat(name, 1, f"k:{name}"), seat("bot", 2, bot="easy")])
    board = store.leaderboard()
    assert board[0].rating == board[1].rating
    assert [s.name for s in board] == ["Amy", "Zoe"]


def test_one_key_at_two_seats_counts_once_at_its_best_seat(store: SqliteStore) -> None:
    store.record_result("T", [seat("me", 3, "k:me"), seat("you", 2, "k:you"), seat("me 2", 1, "k:me")])
    me = store.stats("k:me")
    assert me is not None and (me.games, me.wins, me.name) == (1, 1, "me 2")
    [match] = store.recent_matches()
    assert [p.identity for p in match.placings] == [None, "k:you", "k:me"]


def test_recent_matches_round_trip(store: SqliteStore) -> None:
    first = (seat("Ada", 1, "k:a", points=80), seat("easy bot", 2, bot="easy", points=0))
    second = (seat("guest", 1), seat("Ada", 2, "k:a", points=3))
    store.record_result("T1", first)
    store.record_result("T2", second)
    newest, oldest = store.recent_matches()
    assert (newest.table, newest.placings) == ("T2", second)
    assert (oldest.table, oldest.placings) == ("T1", first)
    assert newest.finished > oldest.finished
    assert len(store.recent_matches(limit=1)) == 1


@pytest.mark.parametrize(
    "placings",
    [[seat("solo", 1, "k:a")], []],
)
def test_bad_results_are_refused_and_change_nothing(store: SqliteStore, placings: list[Placing]) -> None:
    with pytest.raises(ValueError):
        store.record_result("T", placings)
    assert store.stats("k:a") is None and store.recent_matches() == []


def test_a_placing_is_not_both_a_bot_and_a_key_and_ranks_start_at_one() -> None:
    with pytest.raises(ValueError, match="not both"):
        Placing("x", 1, 0, "k:a", "easy")
    with pytest.raises(ValueError, match="rank 0"):
        Placing("x", 0)


# ----- moderation, motd, events -------------------------------------------------------------


def test_bans_round_trip(store: SqliteStore) -> None:
    assert store.banned("SHA256:bad") is None
    store.ban("SHA256:bad", "spam", "op")
    store.ban("SHA256:worse", "abuse", "op2")
    assert store.banned("SHA256:bad") == "spam"
    store.ban("SHA256:bad", "spam, again", "op")
    assert store.banned("SHA256:bad") == "spam, again"
    assert [(b.fingerprint, b.reason, b.by) for b in store.bans()] == [
        ("SHA256:worse", "abuse", "op2"),
        ("SHA256:bad", "spam, again", "op"),
    ]
    assert store.unban("SHA256:bad") is True
    assert store.unban("SHA256:bad") is False
    assert store.banned("SHA256:bad") is None and len(store.bans()) == 1


def test_motd_round_trip(store: SqliteStore) -> None:
    assert store.motd() == ""
    store.set_motd("Welcome!\nBe kind.")
    assert store.motd() == "Welcome!\nBe kind."
    store.set_motd("")
    assert store.motd() == ""


def test_events_append_and_read_oldest_first(store: SqliteStore) -> None:
    for i in range(5):
        store.log_event("join", f"player {i}")
    store.log_event("kick", "player 2")
    events = store.recent_events(3)
    assert [(e.kind, e.text) for e in events] == [
        ("join", "player 3"),
        ("join", "player 4"),
        ("kick", "player 2"),
    ]
    assert events[0].id < events[1].id < events[2].id and events[0].when < events[2].when
    assert len(store.recent_events()) == 6 and store.recent_events(0) == []


def test_the_events_log_keeps_only_its_newest_lines(path: Path) -> None:
    with SqliteStore(path, events_kept=150) as store:
        for i in range(1000):
            store.log_event("result", f"match {i}")
        kept = store.recent_events(10_000)
        assert 150 <= len(kept) < 250  # pruned every 100 events down to the newest 150
        assert kept[-1].text == "match 999" and kept[0].text == f"match {1000 - len(kept)}"
