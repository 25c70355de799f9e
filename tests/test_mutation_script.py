"""The mutation command's one judgement of its own: SQL whose case alone changed."""

from __future__ import annotations

import pytest

from tests.mutation import sql_case_only


def _diff(before: str, after: str) -> str:
    return (f"--- bot/store/audit.py\n+++ bot/store/audit.py\n@@ -1,3 +1,3 @@\n"
            f" async def f(conn):\n-{before}\n+{after}\n")


@pytest.mark.parametrize(("before", "after"), [
    ('    n = q("SELECT count(*) FROM users")', '    n = q("select count(*) from users")'),
    ('    n = q("SELECT sum(delta) FROM ledger WHERE account = \'pool\'")',
     '    n = q("select sum(delta) from ledger where account = \'pool\'")'),
    ('          " AND kind IN (\'grant\', \'bonus\')")',
     '          " and kind in (\'grant\', \'bonus\')")'),
    ('    await c.execute("BEGIN IMMEDIATE")', '    await c.execute("begin immediate")'),
])
def test_sql_keywords_and_names_in_another_case_change_nothing(before: str, after: str) -> None:
    assert sql_case_only(_diff(before, after))


@pytest.mark.parametrize(("before", "after"), [
    # A quoted value is compared as written.
    ('    n = q("SELECT sum(delta) FROM ledger WHERE account = \'pool\'")',
     '    n = q("SELECT SUM(DELTA) FROM LEDGER WHERE ACCOUNT = \'POOL\'")'),
    # An operator's message is not SQL.
    ('    "user {0}: negative balance {1}")', '    "USER {0}: NEGATIVE BALANCE {1}")'),
    ('    "ledger row {0}: a {1} may not touch the bank")',
     '    "LEDGER ROW {0}: A {1} MAY NOT TOUCH THE BANK")'),
    # More than case.
    ('    n = q("SELECT count(*) FROM users")', '    n = q("XXSELECT count(*) FROM usersXX")'),
    ('    n = q("SELECT count(*) FROM users") + 0', '    n = q("select count(*) from users") + 1'),
])
def test_anything_else_still_counts(before: str, after: str) -> None:
    assert not sql_case_only(_diff(before, after))


def test_a_diff_that_adds_or_drops_a_line_still_counts() -> None:
    diff = ("--- a.py\n+++ a.py\n@@ -1,2 +1,1 @@\n-    x = q(\"SELECT 1\")\n"
            "-    y = q(\"SELECT 2\")\n+    x = q(\"select 1\")\n")
    assert not sql_case_only(diff)
    assert not sql_case_only("")
