"""Time: grounding what a text says about when (rules and their tables, holidays, zone names),
and corrections of an earlier time."""
