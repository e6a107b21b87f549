#!/usr/bin/env python3
"""Build a second blind set of chat messages and questions with gold dates.

Written without reading the package's date code or the first set's cases.
Every gold date is COMPUTED here from the message's send datetime (or the
question's asked datetime) by the small calendar helpers below; none is typed
by hand. The helpers assert the conditions under which a phrase is unambiguous
(e.g. a bare weekday is never the send weekday), so a badly chosen send date
fails loudly instead of producing a disputable gold.

    python3 make_blind.py            # writes dev.json, test.json, all.json here
    python3 make_blind.py --table    # also prints the counts table for README.md

stdlib only, deterministic (seed below).
"""
import calendar
import datetime as dt
import json
import os
import random
import sys
from collections import Counter, OrderedDict

SEED = 20250611
HERE = os.path.dirname(os.path.abspath(__file__))
DAY = dt.timedelta(days=1)
MON, TUE, WED, THU, FRI, SAT, SUN = range(7)

# ---------------------------------------------------------------- helpers --


def _d(s):
    return s.date() if isinstance(s, dt.datetime) else s


def D(day, time=None):
    """Single-day gold (optionally with a HH:MM clock time)."""
    g = OrderedDict([("start", day.isoformat()), ("end", day.isoformat())])
    if time:
        g["time"] = time
    return g


def R(a, b):
    """Inclusive range gold."""
    assert a <= b
    return OrderedDict([("start", a.isoformat()), ("end", b.isoformat())])


def plus(s, n):
    return _d(s) + n * DAY


def fut(s, wd):
    """Bare weekday, future: next occurrence strictly after the send date.
    Never used for the send date's own weekday."""
    t = _d(s)
    assert t.weekday() != wd, ("bare weekday equals send weekday", t, wd)
    return t + ((wd - t.weekday()) % 7) * DAY


def past(s, wd):
    """Bare weekday, past: most recent occurrence strictly before the send date."""
    t = _d(s)
    assert t.weekday() != wd, ("bare weekday equals send weekday", t, wd)
    return t - ((t.weekday() - wd) % 7) * DAY


def this_(s, wd):
    """'this sat': later in the current Mon-Sun week."""
    t = _d(s)
    assert t.weekday() < wd, ("'this' weekday not later this week", t, wd)
    return fut(s, wd)


def next_(s, wd):
    """'next fri': used only where 'next occurrence' and 'the following
    Mon-Sun week' agree and the day is at least 5 days away."""
    t = _d(s)
    a = t + ((wd - t.weekday()) % 7 or 7) * DAY          # next occurrence
    b = monday(t) + 7 * DAY + wd * DAY                    # following week
    assert a == b and (a - t).days >= 5, ("disputable 'next'", t, wd)
    return a


def last_(s, wd):
    """'last tues': used only where 'most recent' and 'in the previous
    Mon-Sun week' agree."""
    t = _d(s)
    a = past(s, wd)
    assert monday(t) - 7 * DAY <= a < monday(t), ("disputable 'last'", t, wd)
    return a


def week_after(s, wd, weeks=1):
    """British 'thursday week' / 'a week on thursday' / 'saturday after next':
    the coming <wd> (later this Mon-Sun week) plus 7 days (14 for 'fortnight')."""
    t = _d(s)
    assert t.weekday() < wd, ("coming weekday not in this week", t, wd)
    return fut(s, wd) + 7 * weeks * DAY


def monday(day):
    day = _d(day)
    return day - day.weekday() * DAY


def next_week(s):
    m = monday(s) + 7 * DAY
    return R(m, m + 6 * DAY)


def last_week(s):
    m = monday(s) - 7 * DAY
    return R(m, m + 6 * DAY)


def this_weekend(s, shift=0):
    t = _d(s)
    assert t.weekday() <= FRI, ("'this weekend' sent at the weekend", t)
    sat = fut(s, SAT) + 7 * shift * DAY
    return R(sat, sat + DAY)


def last_weekend(s):
    t = _d(s)
    assert t.weekday() <= FRI, ("'last weekend' sent at the weekend", t)
    sat = monday(t) - 2 * DAY
    return R(sat, sat + DAY)


def next_weekend(s):
    m = monday(s) + 7 * DAY
    return R(m + 5 * DAY, m + 6 * DAY)


def dom_next(s, n, wd=None):
    """'the 20th' (future): next date with that day-of-month strictly after."""
    t = _d(s)
    assert t.day != n, ("day-of-month equals send day", t, n)
    y, m = t.year, t.month
    while True:
        if n <= calendar.monthrange(y, m)[1]:
            c = dt.date(y, m, n)
            if c > t:
                break
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    if wd is not None:
        assert c.weekday() == wd, ("stated weekday does not match", c, wd)
    return c


def dom_prev(s, n, wd=None):
    t = _d(s)
    assert t.day != n, ("day-of-month equals send day", t, n)
    y, m = t.year, t.month
    while True:
        if n <= calendar.monthrange(y, m)[1]:
            c = dt.date(y, m, n)
            if c < t:
                break
        y, m = (y - 1, 12) if m == 1 else (y, m - 1)
    if wd is not None:
        assert c.weekday() == wd, ("stated weekday does not match", c, wd)
    return c


def md_next(s, month, day):
    """Day+month without a year (future): next occurrence strictly after."""
    t = _d(s)
    c = dt.date(t.year, month, day)
    assert c != t
    return c if c > t else dt.date(t.year + 1, month, day)


def md_prev(s, month, day):
    t = _d(s)
    c = dt.date(t.year, month, day)
    assert c != t
    return c if c < t else dt.date(t.year - 1, month, day)


def full(s, year, month, day, past=False):
    """A date written with its year ('21 june 2025', '14/03/25'): computed as the
    next (or, past=True, most recent) occurrence of that day and month, which
    must fall in the written year (two-digit years are 20yy)."""
    c = md_prev(s, month, day) if past else md_next(s, month, day)
    assert c.year == (2000 + year if year < 100 else year), ("year disagrees", s, year, c)
    return c


def month_range(y, m):
    return R(dt.date(y, m, 1), dt.date(y, m, calendar.monthrange(y, m)[1]))


def month_next(s, m):
    t = _d(s)
    assert t.month != m, ("month name equals send month", t, m)
    return month_range(t.year if m > t.month else t.year + 1, m)


def month_prev(s, m):
    t = _d(s)
    assert t.month != m, ("month name equals send month", t, m)
    return month_range(t.year if m < t.month else t.year - 1, m)


def prev_month(s):
    t = _d(s)
    y, m = (t.year - 1, 12) if t.month == 1 else (t.year, t.month - 1)
    return month_range(y, m)


def easter(y):
    """Gregorian computus (anonymous Gregorian algorithm)."""
    a = y % 19
    b, c = divmod(y, 100)
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    l = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * l) // 451
    month = (h + l - 7 * m + 114) // 31
    day = (h + l - 7 * m + 114) % 31 + 1
    return dt.date(y, month, day)


def nth_weekday(y, m, wd, n):
    first = dt.date(y, m, 1)
    return first + ((wd - first.weekday()) % 7) * DAY + 7 * (n - 1) * DAY


def last_weekday_of(y, m, wd):
    last = dt.date(y, m, calendar.monthrange(y, m)[1])
    return last - ((last.weekday() - wd) % 7) * DAY


NAMED = {
    "christmas": lambda y: dt.date(y, 12, 25),
    "xmas eve": lambda y: dt.date(y, 12, 24),
    "xmas eve eve": lambda y: dt.date(y, 12, 23),
    "boxing day": lambda y: dt.date(y, 12, 26),
    "nye": lambda y: dt.date(y, 12, 31),
    "new year's day": lambda y: dt.date(y, 1, 1),
    "halloween": lambda y: dt.date(y, 10, 31),
    "valentine's": lambda y: dt.date(y, 2, 14),
    "bonfire night": lambda y: dt.date(y, 11, 5),
    "burns night": lambda y: dt.date(y, 1, 25),
    "st patrick's": lambda y: dt.date(y, 3, 17),
    "easter sunday": easter,
    "good friday": lambda y: easter(y) - 2 * DAY,
    "easter monday": lambda y: easter(y) + DAY,
    "shrove tuesday": lambda y: easter(y) - 47 * DAY,
    "mothering sunday": lambda y: easter(y) - 21 * DAY,
    "uk aug bank holiday": lambda y: last_weekday_of(y, 8, MON),
    "uk spring bank holiday": lambda y: last_weekday_of(y, 5, MON),
    "us thanksgiving": lambda y: nth_weekday(y, 11, THU, 4),
    "us memorial day": lambda y: last_weekday_of(y, 5, MON),
    "us labor day": lambda y: nth_weekday(y, 9, MON, 1),
}


def named_next(s, name):
    """Future mention of a named day: next occurrence on/after the send date."""
    t = _d(s)
    f = NAMED[name]
    return f(t.year) if f(t.year) >= t else f(t.year + 1)


def named_prev(s, name):
    t = _d(s)
    f = NAMED[name]
    return f(t.year) if f(t.year) < t else f(t.year - 1)


# ---------------------------------------------------------------- content --

CHATS = []      # list of dicts: stratum, us, msgs
QUESTIONS = []


def m(sent, speaker, text, group, gold, note, corrects=None):
    """gold: callable(send datetime) -> gold dict, or None for no date."""
    return dict(sent=sent, speaker=speaker, text=text, group=group, gold=gold,
                note=note, corrects=corrects)


def chat(stratum, *msgs, us=False):
    CHATS.append(dict(stratum=stratum, us=us, msgs=list(msgs)))


def q(asked, text, gold, note):
    QUESTIONS.append(dict(asked=asked, text=text, gold=gold, note=note))


US = "Chat marked US (id ends -us): "

# ---- plan: future arrangements, invitations, availability
P = "plan"
chat(P, m("2023-03-07 10:12", "Jess", "lunch tmrw? the thai place by the office", P,
          lambda s: D(plus(s, 1)), "tmrw = send date + 1"))
chat(P, m("2024-05-17 18:40", "Omar", "cant do thurs sorry, got a work thing", P,
          lambda s: D(fut(s, THU)), "bare weekday in a future/availability sense = next Thursday"))
chat(P, m("2025-06-18 21:05", "Bea", "free sat? there's a car boot sale in Hove", P,
          lambda s: D(fut(s, SAT)), "next Saturday after send date"))
chat(P, m("2023-07-24 08:55", "Kit", "you lot around this weekend? thinking bbq if it stays dry", P,
          lambda s: this_weekend(s), "this weekend = coming Sat-Sun"))
chat(P, m("2024-11-26 12:30", "Dev", "drinks after work friday? 6ish at the Crown", P,
          lambda s: D(fut(s, FRI), "18:00"), "next Friday; 6ish after work = 18:00"))
chat(P, m("2025-01-31 09:02", "Mia", "dentist booked for the 14th at 9.40 fyi", P,
          lambda s: D(dom_next(s, 14), "09:40"), "sent on a month end: the 14th = next month"))
chat(P, m("2026-03-04 19:20", "Raj", "mum's birthday lunch is on sunday at 1, can you bring the cake", P,
          lambda s: D(fut(s, SUN), "13:00"), "lunch at 1 = 13:00"))
chat(P, m("2023-10-11 15:45", "Lena", "shall we say monday 3pm for the call?", P,
          lambda s: D(fut(s, MON), "15:00"), "next Monday"))
chat(P, m("2024-08-02 17:10", "Tom", "I'm off all next week if you want to meet up", P,
          lambda s: next_week(s), "next week = following Mon-Sun"))
chat(P, m("2025-03-29 11:11", "Zoe", "coffee tomorrow morning? 10 ok?", P,
          lambda s: D(plus(s, 1), "10:00"), "tomorrow at 10"))
chat(P, m("2024-01-28 20:02", "Ali", "party's on the 2nd, bring a bottle!", P,
          lambda s: D(dom_next(s, 2)), "sent late January: the 2nd = 2 February"))
chat(P, m("2023-09-19 07:48", "Sophie", "can you take the kids on thursday afternoon? I've got a shift", P,
          lambda s: D(fut(s, THU)), "next Thursday; no clock time"))
chat(P, m("2025-01-23 13:37", "Ben", "I've got a free evening on the 30th if that works for you", P,
          lambda s: D(dom_next(s, 30)), "the 30th of the current month"))
chat(P, m("2026-05-14 16:20", "Nat", "hair appointment the day after tomorrow at 11, can you drive me?", P,
          lambda s: D(plus(s, 2), "11:00"), "day after tomorrow = +2"))
chat(P, m("2024-06-15 10:30", "Gus", "next friday works for me", P,
          lambda s: D(next_(s, FRI)), "sent Saturday: next Friday = 6 days later under either reading"))
chat(P, m("2023-02-13 09:15", "Ivy", "book club is this thursday at 8, at Carla's", P,
          lambda s: D(this_(s, THU), "20:00"), "this thursday = Thursday of the current week; book club at 8 = 20:00"))
chat(P, m("2025-10-06 22:10", "Leo", "I'm around monday to wednesday next week if you fancy it", P,
          lambda s: R(monday(s) + 7 * DAY, monday(s) + 9 * DAY), "Mon-Wed of the following week"))
chat(P, m("2024-09-25 18:00", "Hana", "meet at the station at 9 on saturday morning?", P,
          lambda s: D(fut(s, SAT), "09:00"), "saturday morning at 9"))
chat(P, m("2026-02-26 08:20", "Finn", "fancy a walk on sunday if it's nice?", P,
          lambda s: D(fut(s, SUN)), "next Sunday"))
chat(P, m("2023-12-12 21:30", "Rosa", "spin class at 6.15am tomorrow, you in?", P,
          lambda s: D(plus(s, 1), "06:15"), "tomorrow 06:15 (sent 21:30, not after midnight)"))
chat(P, m("2025-07-31 14:00", "Jay", "shall we do the zoo on the 9th? kids are off", P,
          lambda s: D(dom_next(s, 9)), "sent on a month end: the 9th = next month"))

# ---- report: past events
RP = "report"
chat(RP, m("2023-05-11 19:22", "Mo", "went to the dentist on monday, 2 fillings 😩", RP,
           lambda s: D(past(s, MON)), "past tense: most recent Monday before send date"))
chat(RP, m("2024-03-20 12:05", "Cleo", "saw her at the market last weekend, she looked well", RP,
           lambda s: last_weekend(s), "last weekend = the Sat-Sun just before this week"))
chat(RP, m("2025-02-28 17:45", "Pete", "2 weeks ago I finally handed in my notice", RP,
           lambda s: D(plus(s, -14)), "2 weeks ago = send date - 14 (single day)"))
chat(RP, m("2023-06-02 09:30", "Ana", "had the interview yesterday, think it went ok?", RP,
           lambda s: D(plus(s, -1)), "yesterday"))
chat(RP, m("2024-10-08 20:15", "Will", "we got back from Spain on the 3rd", RP,
           lambda s: D(dom_prev(s, 3)), "past: most recent 3rd"))
chat(RP, m("2025-11-17 08:40", "Sara", "my car broke down last thursday on the M25", RP,
           lambda s: D(last_(s, THU)), "sent Monday: last thursday = 4 days ago (both readings)"))
chat(RP, m("2026-01-14 10:10", "Eli", "this morning's run was brutal, -4 out there", RP,
           lambda s: D(_d(s)), "this morning = send date"))
chat(RP, m("2023-08-24 13:00", "Jo", "I was off sick the whole of last week", RP,
           lambda s: last_week(s), "last week = previous Mon-Sun"))
chat(RP, m("2024-06-27 18:30", "Kai", "we moved into the new flat in march, still unpacking lol", RP,
           lambda s: month_prev(s, 3), "past: the most recent March (whole month)"))
chat(RP, m("2025-05-09 16:16", "Noor", "saw Tom three days ago, he seems a lot better", RP,
           lambda s: D(plus(s, -3)), "three days ago"))
chat(RP, m("2026-04-12 09:05", "Max", "the boiler guy came on friday and fixed it finally", RP,
           lambda s: D(past(s, FRI)), "past: most recent Friday"))
chat(RP, m("2023-11-08 07:20", "Lily", "did parkrun the day before yesterday, new PB!", RP,
           lambda s: D(plus(s, -2)), "day before yesterday = -2"))
chat(RP, m("2024-12-06 11:45", "Ravi", "last month was mad busy at work", RP,
           lambda s: prev_month(s), "last month = previous calendar month"))
chat(RP, m("2023-03-02 15:00", "Una", "finished the course on the 28th 🎓", RP,
           lambda s: D(dom_prev(s, 28)), "past: most recent 28th = Feb 28 (non-leap)"))
chat(RP, m("2025-09-16 21:00", "Tess", "we had our first date a week ago today", RP,
           lambda s: D(plus(s, -7)), "a week ago today = -7"))
chat(RP, m("2024-07-15 08:05", "Carl", "I was in A&E over the weekend, all fine now", RP,
           lambda s: last_weekend(s), "sent Monday, past tense: the weekend just gone"))
chat(RP, m("2026-06-30 09:50", "Dana", "ran into Sam in Tesco last night", RP,
           lambda s: D(plus(s, -1)), "last night = send date - 1"))
chat(RP, m("2023-08-14 10:00", "Tariq", "the wedding was on saturday the 12th, such a good day", RP,
           lambda s: D(dom_prev(s, 12, SAT)), "past: most recent 12th, which is a Saturday"))
chat(RP, m("2025-03-17 17:30", "Femi", "got my results last wednesday, passed!!", RP,
           lambda s: D(last_(s, WED)), "sent Monday: last wednesday = 5 days ago (both readings)"))
chat(RP, m("2024-02-20 19:00", "Gwen", "Nan's funeral was on the 9th of january", RP,
           lambda s: D(md_prev(s, 1, 9)), "past: most recent 9 January"))
chat(RP, m("2025-12-31 13:20", "Hugo", "got the keys earlier today!!! 🔑", RP,
           lambda s: D(_d(s)), "earlier today = send date (year end)"))

# ---- reschedule: gold = the new time
RS = "reschedule"
chat(RS, m("2023-04-17 09:00", "Priya", "is the team meeting still weds?", P,
           lambda s: D(fut(s, WED)), "question about the planned day: next Wednesday"),
     m("2023-04-17 09:12", "Dan", "nope, been moved to thursday", RS,
       lambda s: D(fut(s, THU)), "new day: next Thursday"))
chat(RS, m("2024-02-09 17:30", "Meg", "dinner tonight pushed back to 8.30, table wasn't ready", RS,
           lambda s: D(_d(s), "20:30"), "tonight, new time 20:30"))
chat(RS, m("2025-04-03 11:00", "Ollie", "they bumped my appointment to the 22nd", RS,
           lambda s: D(dom_next(s, 22)), "new date: next 22nd"))
chat(RS, m("2023-10-05 14:00", "Ruth", "the school trip is on the 13th right?", P,
           lambda s: D(dom_next(s, 13)), "the 13th (future)"),
     m("2023-10-05 14:30", "Ken", "they changed it to the 20th", RS,
       lambda s: D(dom_next(s, 20)), "new date: the 20th"))
chat(RS, m("2024-09-09 18:00", "Amy", "is pilates still tues?", P,
           lambda s: D(fut(s, TUE)), "next Tuesday"),
     m("2024-09-09 18:05", "Beth", "nope now on weds", RS,
       lambda s: D(fut(s, WED)), "new day: next Wednesday"))
chat(RS, m("2025-06-05 10:00", "Cal", "the 10th is off, we've rescheduled for the 17th", RS,
           lambda s: D(dom_next(s, 17)), "old 10th, new 17th: gold = 17th"))
chat(RS, m("2023-06-24 12:00", "Dee", "the party's postponed till next saturday 😕", RS,
           lambda s: D(next_(s, SAT)), "sent Saturday: next saturday = +7 under either reading"))
chat(RS, m("2024-04-24 20:20", "Ed", "football's been brought forward to 10am sunday", RS,
           lambda s: D(fut(s, SUN), "10:00"), "new time: Sunday 10:00"))
chat(RS, m("2025-08-14 22:40", "Flo", "flight delayed, now landing at 1.15am 😴", RS,
           lambda s: D(plus(s, 1), "01:15"), "small-hours time sent late evening = next calendar day"))
chat(RS, m("2026-03-18 16:00", "Gil", "deadline's moved to monday 5pm", RS,
           lambda s: D(fut(s, MON), "17:00"), "next Monday 17:00"))
chat(RS, m("2023-01-09 08:30", "Han", "parents evening got moved from tues to thurs", RS,
           lambda s: D(fut(s, THU)), "sent Monday: old Tue, new Thu this week; gold = Thu"))
chat(RS, m("2024-10-26 12:10", "Isla", "the gig's been rescheduled to 14/11", RS,
           lambda s: D(md_next(s, 11, 14)), "day-first 14/11 = 14 November"))
chat(RS, m("2025-05-20 19:45", "Jon", "we've pushed the trip back to october", RS,
           lambda s: month_next(s, 10), "future month: whole of the coming October"))
chat(RS, m("2026-01-05 07:30", "Kim", "the vet couldn't do today so it's friday now", RS,
           lambda s: D(fut(s, FRI)), "new day: next Friday"))
chat(RS, m("2023-11-01 09:40", "Lou", "no longer the 5th, it's the 6th now", RS,
           lambda s: D(dom_next(s, 6)), "new date: the 6th"))
chat(RS, m("2024-07-10 21:15", "Mum", "I've moved lunch to 12.30 tomorrow, hope that's ok", RS,
           lambda s: D(plus(s, 1), "12:30"), "tomorrow 12:30"))
chat(RS, m("2024-11-15 18:00", "Ned", "venue fell through so the wedding's now 21 june 2025", RS,
           lambda s: D(full(s, 2025, 6, 21)),
           "explicit date with year"))
chat(RS, m("2025-12-28 10:00", "Ola", "training's been moved to the 2nd", RS,
           lambda s: D(dom_next(s, 2)), "sent Dec 28: the 2nd = 2 January next year"))
chat(RS, m("2026-09-08 14:15", "Pat", "the review got bumped to next week, no day yet", RS,
           lambda s: next_week(s), "next week as a range (no day given)"))
chat(RS, m("2023-05-03 20:00", "Quin", "they've put the exam back a week, so it's the 19th now", RS,
           lambda s: D(dom_next(s, 19)), "new date: the 19th"))

# ---- mixed: a past and a future in one message; gold = what it is about
MX = "mixed"
chat(MX, m("2024-01-17 18:20", "Rae", "spoke to the landlord yesterday, he's coming to fix the shower on friday", MX,
           lambda s: D(fut(s, FRI)), "about the shower visit (future Friday); yesterday is only when it was arranged"))
chat(MX, m("2023-02-08 08:00", "Sam", "booked them last night!! we're seeing Hamilton on the 22nd", MX,
           lambda s: D(dom_next(s, 22)), "about the show (the 22nd); last night is when it was booked"))
chat(MX, m("2025-10-14 12:00", "Tia", "since I missed you yesterday can you do coffee thurs instead?", MX,
           lambda s: D(fut(s, THU)), "about the proposed coffee (Thursday), not yesterday"))
chat(MX, m("2024-07-05 15:30", "Uma", "sports day was yesterday and Maya won the sack race!! (parents evening is next week btw)", MX,
           lambda s: D(plus(s, -1)), "about sports day (yesterday); next week is a bracketed aside"))
chat(MX, m("2026-03-09 09:00", "Vic", "thanks for having us on saturday! our turn next, how's the 21st for you?", MX,
           lambda s: D(dom_next(s, 21)), "about the proposed visit (the 21st), not last Saturday"))
chat(MX, m("2023-10-16 19:00", "Wes", "my sister came over last weekend and we decided christmas is at mine this year", MX,
           lambda s: D(named_next(s, "christmas")), "about the Christmas arrangement (Dec 25); last weekend is when it was decided"))
chat(MX, m("2025-01-22 08:30", "Xan", "been ill since monday so I'll have to miss friday's class, sorry", MX,
           lambda s: D(fut(s, FRI)), "about missing Friday's class (future), not the illness start"))
chat(MX, m("2024-05-28 13:00", "Yas", "the parcel I ordered on the 2nd is now supposed to arrive tomorrow", MX,
           lambda s: D(plus(s, 1)), "about the arrival (tomorrow), not the order date"))
chat(MX, m("2025-05-14 10:00", "Zac", "last year we went on the 3rd of august, same again this year?", MX,
           lambda s: D(md_next(s, 8, 3)), "about this year's trip: 3 Aug of the send year"))
chat(MX, m("2023-09-05 17:00", "Abi", "had my first driving lesson this morning!! test's not till march though", MX,
           lambda s: D(_d(s)), "about the lesson (this morning = send date); the test is an aside"))
chat(MX, m("2024-03-08 19:30", "Bo", "paid the deposit on tuesday, so we pick up the puppy a week tomorrow 🐶", MX,
           lambda s: D(plus(s, 8)), "about the pickup: a week tomorrow = +8; Tuesday is when the deposit was paid"))
chat(MX, m("2026-07-16 21:00", "Cy", "like I said on the phone last night, the surprise party is saturday at 7, don't tell him", MX,
           lambda s: D(fut(s, SAT), "19:00"), "about the party (Saturday 19:00); last night is when it was said"))
chat(MX, m("2023-06-16 10:30", "Di", "the quote from 2 weeks ago expired so the builders can't start till the 26th now", MX,
           lambda s: D(dom_next(s, 26)), "about the start date (the 26th), not the quote"))
chat(MX, m("2024-08-24 22:00", "Em", "we met at a party on nye 2019 and now we're getting married on 14 september!!", MX,
           lambda s: D(md_next(s, 9, 14)), "about the wedding (14 Sep of the send year)"))
chat(MX, m("2025-07-08 18:00", "Fay", "I know we only saw each other on sunday but fancy dinner weds?", MX,
           lambda s: D(fut(s, WED)), "about the proposed dinner (Wednesday), not Sunday"))
chat(MX, m("2026-02-04 12:40", "Gia", "the plumber who came yesterday said the part will arrive on monday", MX,
           lambda s: D(fut(s, MON)), "about the part's arrival (Monday); yesterday is when he said it"))
chat(MX, m("2023-03-27 20:10", "Hal", "still buzzing from saturday's match, you coming to the home game on the 8th?", MX,
           lambda s: D(dom_next(s, 8)), "about the home game (the 8th), not last Saturday"))
chat(MX, m("2024-10-30 11:20", "Ida", "the hospital rang this morning, my op is on 6 november", MX,
           lambda s: D(md_next(s, 11, 6)), "about the operation (6 Nov); this morning is when they rang"))
chat(MX, m("2025-09-10 14:30", "Jed", "we talked about it at lunch on monday and agreed: away day is friday the 26th", MX,
           lambda s: D(dom_next(s, 26, FRI)), "about the away day (Friday 26th); Monday is when it was agreed"))
chat(MX, m("2023-01-16 18:00", "Kat", "remember the guy from last friday's party? he's asked me out for saturday!", MX,
           lambda s: D(fut(s, SAT)), "about the date (coming Saturday); last Friday's party is background"))

# ---- numeric: day-first unless the chat is marked US
N = "numeric"
chat(N, m("2023-02-25 10:00", "Lars", "can you do 14/3?", N,
          lambda s: D(md_next(s, 3, 14)), "day-first 14/3 = 14 March"))
chat(N, m("2024-10-15 09:00", "Mina", "invoice due 3.11. latest pls", N,
          lambda s: D(md_next(s, 11, 3)), "dotted day-first 3.11. = 3 November"))
chat(N, m("2024-12-08 20:00", "Nico", "booked the flights for 14/03/25 ✈️", N,
          lambda s: D(full(s, 25, 3, 14)), "14/03/25 = 14 March 2025 (two-digit year = 20yy)"))
chat(N, m("2023-05-22 11:30", "Oona", "meeting on 05/06 at 10 then?", N,
          lambda s: D(md_next(s, 6, 5), "10:00"), "day-first (not a US chat): 05/06 = 5 June"))
chat(N, m("2025-01-05 08:45", "Paz", "we got there 28/12 and it snowed the whole time", N,
          lambda s: D(md_prev(s, 12, 28)), "past, no year: most recent 28 Dec = previous year"))
chat(N, m("2024-04-30 21:00", "Quinn", "holiday booked 2/8 - 9/8 🌞", N,
          lambda s: R(md_next(s, 8, 2), md_next(s, 8, 9)), "numeric range, day-first: 2-9 August"))
chat(N, m("2025-11-11 13:00", "Rhi", "exam is 22.06.2026, so loads of time lol", N,
          lambda s: D(full(s, 2026, 6, 22)), "full dotted date"))
chat(N, m("2023-02-03 09:10", "Seb", "paid them on 31/1, should've cleared by now", N,
          lambda s: D(md_prev(s, 1, 31)), "past: 31 January"))
chat(N, m("2024-02-05 18:00", "Tara", "birthday drinks 29/2!! finally a real birthday", N,
          lambda s: D(md_next(s, 2, 29)), "leap day 2024"))
chat(N, m("2026-09-30 16:00", "Udo", "13/10 works for me", N,
          lambda s: D(md_next(s, 10, 13)), "13 October"))
chat(N, m("2023-11-01 10:00", "Val", "thanksgiving potluck is 11/23, bring a side!", N,
          lambda s: D(md_next(s, 11, 23)), US + "month-first 11/23 = 23 November (23 cannot be a month)"), us=True)
chat(N, m("2024-06-13 09:00", "Walt", "bbq at ours on 7/4 like every year 🇺🇸", N,
          lambda s: D(md_next(s, 7, 4)), US + "month-first 7/4 = 4 July"), us=True)
chat(N, m("2025-12-01 15:00", "Xia", "my flight's 12/18 at 6:40am", N,
          lambda s: D(md_next(s, 12, 18), "06:40"), US + "month-first 12/18 = 18 December"), us=True)
chat(N, m("2025-01-16 12:00", "Yuri", "deadline's 3/2, can we chat before?", N,
          lambda s: D(md_next(s, 2, 3)), "day-first (not a US chat): 3/2 = 3 February"))
chat(N, m("2024-04-13 14:00", "Zed", "see you 30.04.", N,
          lambda s: D(md_next(s, 4, 30)), "30 April"))
chat(N, m("2025-02-22 19:00", "Aya", "tickets for 17/05/2025 arrived!!", N,
          lambda s: D(full(s, 2025, 5, 17)), "the event date on the tickets, 17 May 2025"))
chat(N, m("2023-07-27 10:00", "Bram", "we were away 10-14/7 so missed it", N,
          lambda s: R(md_prev(s, 7, 10), md_prev(s, 7, 14)), "past range 10-14 July"))
chat(N, m("2024-12-19 17:00", "Cai", "dinner 23/12 at 7.30?", N,
          lambda s: D(md_next(s, 12, 23), "19:30"), "23 December, dinner 19:30"))
chat(N, m("2023-10-10 09:00", "Dina", "she was born 9/9/23 ❤️", N,
          lambda s: D(full(s, 23, 9, 9, past=True)), "9/9/23 = 9 Sep 2023"))
chat(N, m("2025-12-30 22:00", "Eve", "2/1 back at work 😭", N,
          lambda s: D(md_next(s, 1, 2)), "sent Dec 30: 2/1 = 2 January next year"))
chat(N, m("2026-04-21 11:00", "Fitz", "can we do 4/5 instead of 11/5?", N,
          lambda s: D(md_next(s, 5, 4)), "gold = the proposed 4 May (11 May is the old date)"))

# ---- named days
NM = "named"
chat(NM, m("2023-12-09 19:00", "Gabe", "what are you doing for nye?", NM,
           lambda s: D(named_next(s, "nye")), "NYE = 31 Dec"))
chat(NM, m("2024-12-10 12:00", "Hollie", "xmas eve drinks at the Swan?", NM,
           lambda s: D(named_next(s, "xmas eve")), "24 Dec"))
chat(NM, m("2024-08-14 09:30", "Iain", "bank holiday monday bbq at ours?", NM,
           lambda s: D(named_next(s, "uk aug bank holiday")), "sent mid-August in the UK: last Monday of August (England)"))
chat(NM, m("2024-03-05 20:00", "Jen", "easter sunday lunch at Gran's as usual", NM,
           lambda s: D(named_next(s, "easter sunday")), "Easter Sunday 2024 (computus)"))
chat(NM, m("2025-10-20 18:00", "Kev", "thanksgiving at my parents' this year, you coming?", NM,
           lambda s: D(named_next(s, "us thanksgiving")), US + "US Thanksgiving = 4th Thursday of November"), us=True)
chat(NM, m("2025-04-01 10:00", "Lou", "have you got good friday off?", NM,
           lambda s: D(named_next(s, "good friday")), "Good Friday = Easter - 2"))
chat(NM, m("2025-12-14 21:00", "Marc", "boxing day walk like always?", NM,
           lambda s: D(named_next(s, "boxing day")), "26 Dec"))
chat(NM, m("2023-10-13 17:00", "Nell", "halloween party at Jo's, costumes mandatory", NM,
           lambda s: D(named_next(s, "halloween")), "31 Oct"))
chat(NM, m("2024-02-07 13:00", "Osh", "valentine's dinner booked 😍", NM,
           lambda s: D(named_next(s, "valentine's")), "14 Feb (the dinner, not the booking)"))
chat(NM, m("2025-12-29 15:00", "Pia", "new year's day swim, who's in?", NM,
           lambda s: D(named_next(s, "new year's day")), "sent Dec 29: 1 January next year"))
chat(NM, m("2024-10-22 19:00", "Rob", "fireworks in the park on bonfire night?", NM,
           lambda s: D(named_next(s, "bonfire night")), "UK bonfire night = 5 Nov"))
chat(NM, m("2023-02-01 10:00", "Sue", "we did burns night at Ali's, haggis was actually good", NM,
           lambda s: D(named_prev(s, "burns night")), "past: Burns Night = 25 Jan"))
chat(NM, m("2025-01-08 09:00", "Ted", "at xmas we went to the in-laws, never again", NM,
           lambda s: D(named_prev(s, "christmas")), "past: the most recent Christmas Day"))
chat(NM, m("2025-03-10 18:00", "Ula", "mothering sunday lunch is booked for 1pm", NM,
           lambda s: D(named_next(s, "mothering sunday"), "13:00"), "UK Mothering Sunday = Easter - 21"))
chat(NM, m("2026-02-16 20:00", "Vin", "pancake day tomorrow!! who's making them", NM,
           lambda s: D(named_next(s, "shrove tuesday")) if named_next(s, "shrove tuesday") == plus(s, 1) else None,
           "pancake day = Shrove Tuesday = Easter - 47, which is indeed tomorrow"))
chat(NM, m("2023-05-19 12:00", "Viv", "we went to the coast on easter monday, so many people", NM,
           lambda s: D(named_prev(s, "easter monday")), "past: Easter Monday 2023"))
chat(NM, m("2024-05-09 10:00", "Wyn", "memorial day cookout at the lake?", NM,
           lambda s: D(named_next(s, "us memorial day")), US + "Memorial Day = last Monday of May"), us=True)
chat(NM, m("2026-03-06 18:30", "Xav", "st patrick's day pub crawl, you in?", NM,
           lambda s: D(named_next(s, "st patrick's")), "17 March"))
chat(NM, m("2023-12-17 20:00", "Yve", "xmas eve eve pints?", NM,
           lambda s: D(named_next(s, "xmas eve eve")), "the day before Christmas Eve = 23 Dec"))
chat(NM, m("2025-08-23 09:00", "Zia", "labor day at the cabin?", NM,
           lambda s: D(named_next(s, "us labor day")), US + "Labor Day = first Monday of September"), us=True)
chat(NM, m("2025-04-22 12:00", "Alf", "spring bank holiday camping trip?", NM,
           lambda s: D(named_next(s, "uk spring bank holiday")), "UK spring bank holiday = last Monday of May"))

# ---- tonight / this evening / small hours
TN = "tonight"
chat(TN, m("2023-08-04 17:05", "Bea", "pub tonight?", TN,
           lambda s: D(_d(s)), "tonight = send date"))
chat(TN, m("2024-11-13 16:30", "Cam", "what time this evening? 8?", TN,
           lambda s: D(_d(s), "20:00"), "this evening at 8 = 20:00"))
chat(TN, m("2025-03-22 23:10", "Dom", "taxi's booked for 2am", TN,
           lambda s: D(plus(s, 1), "02:00"), "sent 23:10: 2am = next calendar day"))
chat(TN, m("2023-12-07 12:00", "Eli", "tomorrow night we're at Dan's for his leaving do", TN,
           lambda s: D(plus(s, 1)), "tomorrow night = send date + 1"))
chat(TN, m("2024-06-01 21:45", "Fred", "meet you at the club at 1?", TN,
           lambda s: D(plus(s, 1), "01:00"), "sent 21:45, club: 1 = 01:00 next calendar day"))
chat(TN, m("2025-07-19 00:40", "Gail", "still up, I'll ring you in the morning", TN,
           lambda s: D(_d(s)), "sent 00:40 before sleeping: 'in the morning' = the same calendar date"))
chat(TN, m("2026-05-22 15:00", "Hamid", "tonight at 7.45, table for 4 under my name", TN,
           lambda s: D(_d(s), "19:45"), "tonight 19:45"))
chat(TN, m("2023-03-15 13:00", "Ines", "this evening's session is cancelled, coach is ill", TN,
           lambda s: D(_d(s)), "this evening = send date"))
chat(TN, m("2024-01-26 16:00", "Jack", "we're doing takeaway and a film tonight if you want to come", TN,
           lambda s: D(_d(s)), "tonight"))
chat(TN, m("2025-10-31 18:30", "Kara", "trick or treating tonight with the kids 🎃", TN,
           lambda s: D(_d(s)), "tonight (which is Halloween, a month end)"))
chat(TN, m("2023-09-14 23:30", "Lex", "finish my night shift at 6, breakfast at 6.30?", TN,
           lambda s: D(plus(s, 1), "06:30"), "sent 23:30 on shift: 6.30 = next morning"))
chat(TN, m("2024-09-20 20:15", "Mags", "I'll be back around 4am so don't wait up", TN,
           lambda s: D(plus(s, 1), "04:00"), "small-hours time sent in the evening = next day"))
chat(TN, m("2025-11-05 17:00", "Ned", "fireworks at 7 tonight, wrap up warm", TN,
           lambda s: D(_d(s), "19:00"), "tonight at 7 = 19:00"))
chat(TN, m("2026-08-15 01:15", "Oli", "just got in 🥴 lunch later?", TN,
           lambda s: D(_d(s)), "sent 01:15: lunch later = same calendar date"))
chat(TN, m("2023-06-29 09:00", "Pam", "tomorrow evening works better for me", TN,
           lambda s: D(plus(s, 1)), "tomorrow evening"))
chat(TN, m("2024-03-28 10:00", "Quil", "this evening 6:30 at the school gates", TN,
           lambda s: D(_d(s), "18:30"), "this evening 18:30"))
chat(TN, m("2025-02-14 19:00", "Rex", "film starts 11.50pm tonight, worth it tho", TN,
           lambda s: D(_d(s), "23:50"), "tonight 23:50 (before midnight)"))
chat(TN, m("2023-01-31 18:00", "Sia", "staying in tonight, knackered", TN,
           lambda s: D(_d(s)), "tonight (month end)"))
chat(TN, m("2024-12-31 22:15", "Tam", "after the bells we're heading to Kat's, get there for 1?", TN,
           lambda s: D(plus(s, 1), "01:00"), "NYE 22:15, after midnight ('the bells'): 1 = 01:00 on 1 January"))
chat(TN, m("2026-11-20 19:40", "Uri", "can't do tonight but tmrw night?", TN,
           lambda s: D(plus(s, 1)), "gold = the proposed tmrw night (tonight is declined)"))

# ---- slang & short forms
SL = "slang"
chat(SL, m("2023-04-12 22:00", "Vee", "2moro at 10?", SL,
           lambda s: D(plus(s, 1), "10:00"), "2moro = tomorrow"))
chat(SL, m("2024-05-15 18:00", "Wiz", "c u sat 👋", SL,
           lambda s: D(fut(s, SAT)), "sat = next Saturday"))
chat(SL, m("2025-06-09 12:00", "Xo", "wknd plans? thinking camping", SL,
           lambda s: this_weekend(s), "wknd (sent Monday) = the coming weekend"))
chat(SL, m("2023-11-21 08:00", "Yaz", "can do thu eve", SL,
           lambda s: D(fut(s, THU)), "thu eve = next Thursday evening"))
chat(SL, m("2024-10-02 17:30", "Zuri", "fri drinks yh?", SL,
           lambda s: D(fut(s, FRI)), "fri"))
chat(SL, m("2025-07-22 10:00", "Ace", "back in sept 🙂", SL,
           lambda s: month_next(s, 9), "sept = the coming September (whole month)"))
chat(SL, m("2026-08-09 14:00", "Bex", "nov 12th is the launch, mark it", SL,
           lambda s: D(md_next(s, 11, 12)), "nov 12th"))
chat(SL, m("2023-08-30 21:00", "Cas", "tmrw 8am sharp", SL,
           lambda s: D(plus(s, 1), "08:00"), "tmrw 08:00"))
chat(SL, m("2024-02-26 12:00", "Dee", "sat arvo? 🏖️", SL,
           lambda s: D(fut(s, SAT)), "sat arvo = Saturday afternoon"))
chat(SL, m("2025-09-25 19:00", "Ez", "mon morn dentist ugh", SL,
           lambda s: D(fut(s, MON)), "mon morn = next Monday morning"))
chat(SL, m("2026-06-03 09:00", "Fen", "tues 2pm ok?", SL,
           lambda s: D(fut(s, TUE), "14:00"), "tues = next Tuesday"))
chat(SL, m("2023-07-07 18:00", "Gee", "2nite?", SL,
           lambda s: D(_d(s)), "2nite = tonight"))
chat(SL, m("2024-01-10 20:00", "Hux", "nxt wk sometime?", SL,
           lambda s: next_week(s), "nxt wk = following Mon-Sun"))
chat(SL, m("2025-05-06 11:00", "Iggy", "l8r 2day? at the park", SL,
           lambda s: D(_d(s)), "l8r 2day = later today"))
chat(SL, m("2026-10-07 20:00", "Jaz", "sun brunch 11.30", SL,
           lambda s: D(fut(s, SUN), "11:30"), "sun = next Sunday"))
chat(SL, m("2023-03-30 23:00", "Kez", "2moz innit", SL,
           lambda s: D(plus(s, 1)), "2moz = tomorrow (sent before midnight)"))
chat(SL, m("2024-11-08 09:00", "Lu", "dec 3rd for the work do", SL,
           lambda s: D(md_next(s, 12, 3)), "dec 3rd"))
chat(SL, m("2025-04-14 19:00", "Mak", "wed w/ the girls", SL,
           lambda s: D(fut(s, WED)), "wed = next Wednesday"))
chat(SL, m("2023-09-26 13:00", "Ny", "this wknd no, nxt wknd def", SL,
           lambda s: next_weekend(s), "gold = nxt wknd (contrasted with this wknd): weekend of the following week"))
chat(SL, m("2024-07-23 22:00", "Oz", "saw him ytd, he's fine", SL,
           lambda s: D(plus(s, -1)), "ytd = yesterday"))
chat(SL, m("2026-01-28 18:00", "Pip", "feb 14 😘", SL,
           lambda s: D(md_next(s, 2, 14)), "feb 14"))

# ---- British forms
BR = "british"
chat(BR, m("2023-06-05 18:00", "Quentin", "thursday week for the curry?", BR,
           lambda s: D(week_after(s, THU)), "thursday week = coming Thursday + 7"))
chat(BR, m("2024-09-16 12:00", "Rosie", "saturday after next is the only one I've got free", BR,
           lambda s: D(week_after(s, SAT)), "saturday after next = coming Saturday + 7"))
chat(BR, m("2025-02-04 10:00", "Stan", "we fly to Crete a week on friday!!", BR,
           lambda s: D(week_after(s, FRI)), "a week on friday = coming Friday + 7 (the flight)"))
chat(BR, m("2023-10-24 19:00", "Trish", "not this weekend, the weekend after", BR,
           lambda s: this_weekend(s, shift=1), "the weekend after = coming weekend + 7"))
chat(BR, m("2024-04-10 08:00", "Ulf", "I'm back a week tomorrow", BR,
           lambda s: D(plus(s, 8)), "a week tomorrow = +8"))
chat(BR, m("2025-08-05 11:00", "Vera", "a fortnight on saturday is the christening", BR,
           lambda s: D(week_after(s, SAT, 2)), "a fortnight on saturday = coming Saturday + 14"))
chat(BR, m("2026-04-20 09:00", "Wren", "wednesday fortnight for the inspection", BR,
           lambda s: D(week_after(s, WED, 2)), "wednesday fortnight = coming Wednesday + 14"))
chat(BR, m("2023-01-18 14:00", "Wynn", "see you a week today then", BR,
           lambda s: D(plus(s, 7)), "a week today = +7"))
chat(BR, m("2024-11-28 09:00", "Xena", "the scan was monday just gone", BR,
           lambda s: D(past(s, MON)), "monday just gone = most recent Monday"))
chat(BR, m("2025-06-25 16:00", "York", "a fortnight today we'll be in Cornwall", BR,
           lambda s: D(plus(s, 14)), "a fortnight today = +14"))
chat(BR, m("2026-10-12 20:00", "Zara", "friday week suits me", BR,
           lambda s: D(week_after(s, FRI)), "friday week = coming Friday + 7"))
chat(BR, m("2023-04-04 09:00", "Aled", "the sunday after next then", BR,
           lambda s: D(week_after(s, SUN)), "sunday after next = coming Sunday + 7"))
chat(BR, m("2024-06-18 21:00", "Bryn", "a week on thursday is his leaving do", BR,
           lambda s: D(week_after(s, THU)), "a week on thursday = coming Thursday + 7"))
chat(BR, m("2025-10-20 10:00", "Ciara", "I'll have it to you last thing on friday", BR,
           lambda s: D(fut(s, FRI)), "last thing on friday = end of the coming Friday"))
chat(BR, m("2023-12-13 12:00", "Dyl", "had the MOT done a week yesterday", BR,
           lambda s: D(plus(s, -8)), "a week yesterday = -8"))
chat(BR, m("2024-03-12 18:00", "Eira", "dinner half eight on saturday?", BR,
           lambda s: D(fut(s, SAT), "20:30"), "half eight (dinner) = 20:30"))
chat(BR, m("2025-01-27 08:30", "Ffion", "wednesday week for the haircut", BR,
           lambda s: D(week_after(s, WED)), "wednesday week = coming Wednesday + 7"))
chat(BR, m("2026-03-28 19:00", "Gwyn", "a fortnight tomorrow is her graduation", BR,
           lambda s: D(plus(s, 15)), "a fortnight tomorrow = +15"))
chat(BR, m("2024-08-28 11:00", "Hefin", "saturday week for the car boot?", BR,
           lambda s: D(week_after(s, SAT)), "saturday week = coming Saturday + 7"))
chat(BR, m("2023-07-11 20:00", "Huw", "not this sat, the one after", BR,
           lambda s: D(week_after(s, SAT)), "the one after this sat = coming Saturday + 7"))

# ---- corrections (+ acknowledgements as distractors)
C, X = "correction", "distractor"
ACK = "acknowledgement, no date"
chat(C, m("2023-02-27 10:00", "Ana", "dinner at ours thurs at 7?", C,
          lambda s: D(fut(s, THU), "19:00"), "original: Thursday 19:00"),
     m("2023-02-27 10:02", "Bill", "👍", X, None, ACK),
     m("2023-02-27 10:15", "Ana", "sorry I meant friday, still 7", C,
       lambda s: D(fut(s, FRI), "19:00"), "cue 'sorry I meant': Friday 19:00", corrects=0))
chat(C, m("2024-04-18 20:00", "Cora", "book club at mine on the 25th", C,
          lambda s: D(dom_next(s, 25)), "original: the 25th"),
     m("2024-04-18 20:10", "Dot", "lovely!", X, None, ACK),
     m("2024-04-18 20:40", "Cora", "book club at mine on the 26th", C,
       lambda s: D(dom_next(s, 26)), "no cue word: restated event with new date, the 26th", corrects=0))
chat(C, m("2025-11-27 09:00", "Ewan", "my flight lands 18:20 tomorrow, can you grab me?", C,
          lambda s: D(plus(s, 1), "18:20"), "original: tomorrow 18:20"),
     m("2025-11-27 09:30", "Ewan", "actually it lands 18:50, checked again", C,
       lambda s: D(plus(s, 1), "18:50"), "cue 'actually': same day (tomorrow, carried over), new time 18:50", corrects=0),
     m("2025-11-27 09:31", "Lyn", "👌", X, None, ACK))
chat(C, m("2023-09-04 11:00", "Fay", "team lunch is tuesday 12:30", C,
          lambda s: D(fut(s, TUE), "12:30"), "original: Tuesday 12:30"),
     m("2023-09-04 11:05", "Gus", "ok cool", X, None, ACK),
     m("2023-09-04 11:50", "Fay", "team lunch is wednesday 12:30", C,
       lambda s: D(fut(s, WED), "12:30"), "no cue word: restated with Wednesday", corrects=0))
chat(C, m("2024-06-07 18:00", "Hal", "party 22/6 at ours!", C,
          lambda s: D(md_next(s, 6, 22)), "original: 22 June"),
     m("2024-06-07 18:20", "Hal", "correction: party 29/6", C,
       lambda s: D(md_next(s, 6, 29)), "cue 'correction': 29 June", corrects=0),
     m("2024-06-07 18:26", "Jas", "kk", X, None, ACK))
chat(C, m("2025-03-03 19:00", "Iris", "can you drop the keys round saturday?", C,
          lambda s: D(fut(s, SAT)), "original: the coming Saturday"),
     m("2025-03-04 08:00", "Iris", "can you drop the keys round sunday?", C,
       lambda s: D(fut(s, SUN)), "no cue word, sent next day: the coming Sunday (same weekend)", corrects=0))
chat(C, m("2026-02-14 12:00", "Jude", "I'm in London from the 17th to the 19th", C,
          lambda s: R(dom_next(s, 17), dom_next(s, 19)), "original: 17th-19th"),
     m("2026-02-14 12:05", "Kit", "nice", X, None, ACK),
     m("2026-02-14 12:30", "Jude", "oops, 18th to the 20th", C,
       lambda s: R(dom_next(s, 18), dom_next(s, 20)), "cue 'oops': 18th-20th", corrects=0))
chat(C, m("2023-03-19 17:00", "Lia", "Gran's 90th is on 14 april", C,
          lambda s: D(md_next(s, 4, 14)), "original: 14 April"),
     m("2023-03-19 17:03", "Mo", "noted", X, None, ACK),
     m("2023-03-19 17:45", "Lia", "Gran's 90th is on 15 april", C,
       lambda s: D(md_next(s, 4, 15)), "no cue word: restated with 15 April", corrects=0))
chat(C, m("2024-10-17 16:00", "Nia", "doctor's at 9.15 tomorrow", C,
          lambda s: D(plus(s, 1), "09:15"), "original: tomorrow 09:15"),
     m("2024-10-17 16:20", "Nia", "wait no, 9.45", C,
       lambda s: D(plus(s, 1), "09:45"), "cue 'wait no': tomorrow carried over, new time 09:45", corrects=0),
     m("2024-10-17 16:22", "Roz", "ok x", X, None, ACK))
chat(C, m("2025-07-28 13:00", "Ozzy", "my parents arrive friday evening", C,
          lambda s: D(fut(s, FRI)), "original: Friday"),
     m("2025-07-28 13:10", "Pru", "can't wait!", X, None, ACK),
     m("2025-07-28 15:00", "Ozzy", "my parents arrive saturday evening", C,
       lambda s: D(fut(s, SAT)), "no cue word: restated with Saturday", corrects=0))
chat(C, m("2023-11-29 21:00", "Quin", "quiz is tomorrow at 8", C,
          lambda s: D(plus(s, 1), "20:00"), "original: tomorrow, pub quiz at 8 = 20:00"),
     m("2023-11-29 21:04", "Rob", "haha ok", X, None, ACK),
     m("2023-11-29 21:30", "Quin", "quiz is friday at 8", C,
       lambda s: D(fut(s, FRI), "20:00"), "no cue word: restated with Friday 20:00", corrects=0))
chat(C, m("2025-12-30 11:00", "Sal", "the viewing's on the 2nd at 11", C,
          lambda s: D(dom_next(s, 2), "11:00"), "original: 2 January next year, 11:00"),
     m("2025-12-30 11:10", "Sal", "my bad, it's the 3rd at 11", C,
       lambda s: D(dom_next(s, 3), "11:00"), "cue 'my bad': 3 January next year, 11:00", corrects=0),
     m("2025-12-30 11:12", "Tim", "sure thing", X, None, ACK))

# ---- questions to the assistant about the user's own memories
q("2024-03-11 09:00", "what's on thurs?", lambda s: D(fut(s, THU)), "coming Thursday")
q("2025-06-07 20:00", "when did I see Sam last month?", lambda s: prev_month(s), "last month as a range")
q("2023-10-10 08:00", "what did I do on the 3rd?", lambda s: D(dom_prev(s, 3)), "past: most recent 3rd")
q("2024-05-22 12:00", "anything on this weekend?", lambda s: this_weekend(s), "coming Sat-Sun")
q("2025-09-07 21:00", "what have I got tomorrow?", lambda s: D(plus(s, 1)), "tomorrow")
q("2023-04-25 10:00", "when's the dentist?", lambda s: None, "no date in the question")
q("2026-01-19 08:00", "what did I do last weekend?", lambda s: last_weekend(s), "the weekend just gone")
q("2024-12-09 19:00", "who did I have dinner with on friday?", lambda s: D(past(s, FRI)), "past: most recent Friday")
q("2025-03-31 12:00", "what was I up to 2 weeks ago?", lambda s: D(plus(s, -14)), "asked date - 14 (single day)")
q("2023-08-16 09:00", "am I free next tuesday?", lambda s: D(next_(s, TUE)), "asked Wednesday: next tuesday = 6 days later (both readings)")
q("2024-02-17 10:00", "what's happening on 14/3?", lambda s: D(md_next(s, 3, 14)), "day-first 14 March")
q("2024-01-03 11:00", "did I go out on nye?", lambda s: D(named_prev(s, "nye")), "past: the NYE just gone")
q("2026-01-07 10:00", "what did I do on christmas day?", lambda s: D(named_prev(s, "christmas")), "past: most recent 25 Dec")
q("2025-07-18 13:00", "what's on the 21st?", lambda s: D(dom_next(s, 21)), "coming 21st")
q("2023-05-31 08:00", "where was I yesterday evening?", lambda s: D(plus(s, -1)), "yesterday")
q("2024-09-06 18:00", "what's in the diary for next week?", lambda s: next_week(s), "following Mon-Sun")
q("2025-06-22 09:00", "what did I get up to in march?", lambda s: month_prev(s, 3), "past: most recent March")
q("2026-02-27 17:00", "what am I doing tonight?", lambda s: D(_d(s)), "tonight = asked date")
q("2023-03-20 12:00", "what's the plan for easter sunday?", lambda s: D(named_next(s, "easter sunday")), "coming Easter Sunday")
q("2024-08-08 10:00", "when's my next haircut?", lambda s: None, "no date in the question")
q("2025-02-10 08:00", "what did I do last tues?", lambda s: D(last_(s, TUE)), "asked Monday: last tues = 6 days ago (both readings)")
q("2026-07-06 12:00", "what's on a week on friday?", lambda s: D(week_after(s, FRI)), "coming Friday + 7")
q("2023-12-01 09:00", "what did I do the day before yesterday?", lambda s: D(plus(s, -2)), "-2")
q("2024-11-04 20:00", "anything booked for sat the 9th?", lambda s: D(dom_next(s, 9, SAT)), "coming 9th, a Saturday")
q("2025-10-30 09:00", "remind me what's on weds", lambda s: D(fut(s, WED)), "coming Wednesday")
q("2023-12-04 10:00", "what did we do for thanksgiving?", lambda s: D(named_prev(s, "us thanksgiving")),
  "US user: past US Thanksgiving (4th Thursday of November)")
q("2026-04-19 21:00", "what did I do 3 days ago?", lambda s: D(plus(s, -3)), "-3")
q("2024-07-16 09:00", "what's on this friday?", lambda s: D(this_(s, FRI)), "Friday of the current week")
q("2025-01-30 19:00", "did I see Priya last week?", lambda s: last_week(s), "previous Mon-Sun")
q("2023-02-14 12:00", "what am I doing in august?", lambda s: month_next(s, 8), "coming August (whole month)")
q("2024-11-01 08:00", "what's happening tmrw night?", lambda s: D(plus(s, 1)), "tomorrow night")
q("2026-06-01 10:00", "when did I last speak to Mum?", lambda s: None, "no date in the question")
q("2024-03-09 09:00", "what did I do on 28/2?", lambda s: D(md_prev(s, 2, 28)), "past, day-first: 28 Feb")
q("2025-11-22 15:00", "what's at 3 tomorrow?", lambda s: D(plus(s, 1), "15:00"), "tomorrow 15:00")
q("2023-06-19 20:00", "what's on saturday after next?", lambda s: D(week_after(s, SAT)), "coming Saturday + 7")

# ------------------------------------------------------------ conventions --

CONVENTIONS = OrderedDict([
    ("gold_format", "gold is {start, end} ISO dates, inclusive (single day: start == end), plus 'time' HH:MM "
                    "(24h, naive local) when the message gives a clock time, or, in a correction that changes only "
                    "the time, the date carries over from the corrected message; null when there is no date."),
    ("what_gold_means", "the date (range) when the thing referred to happens/happened. Reschedules, "
                        "corrections and 'X instead of Y': the new / proposed time."),
    ("bare_weekday_future", "a bare weekday ('thurs', 'on friday', 'sat') in a plan or future sense = the next "
                            "occurrence strictly after the send date. Never used on the send weekday itself."),
    ("bare_weekday_past", "a bare weekday in a past-tense message ('came on friday', 'monday just gone') = the "
                          "most recent occurrence strictly before the send date."),
    ("this_weekday", "'this thursday' = the Thursday later in the current Mon-Sun week."),
    ("next_weekday", "'next fri' is used only where the next occurrence and the Friday of the following "
                     "Mon-Sun week are the same day and at least 5 days away (so both readings agree)."),
    ("last_weekday", "'last thursday' is used only where the most recent Thursday lies in the previous "
                     "Mon-Sun week (so both readings agree)."),
    ("british_week_forms", "'thursday week' = 'a week on thursday' = the coming Thursday (later this week) + 7; "
                           "'saturday after next' / 'the sunday after next' / 'not this sat, the one after' = coming "
                           "day + 7; 'wednesday "
                           "fortnight' / 'a fortnight on saturday' = coming day + 14; 'a week today' = +7, 'a week "
                           "tomorrow' = +8, 'a week yesterday' = -8, 'a fortnight today' = +14, 'a fortnight "
                           "tomorrow' = +15. These are only used with a weekday later in the current week."),
    ("weekends", "'this weekend' / 'wknd' (sent Mon-Fri, future) = the coming Sat-Sun; 'the weekend after' = "
                 "that + 7; 'nxt wknd' contrasted with 'this wknd' = Sat-Sun of the following Mon-Sun week; "
                 "'last weekend' / 'over the weekend' in past tense (sent Mon-Fri) = the Sat-Sun just before the "
                 "current week."),
    ("weeks_months", "'next week' / 'last week' = following / previous Mon-Sun week as a range; 'last month' = "
                     "previous calendar month; a month name alone = the whole month (coming one for future, most "
                     "recent for past; never the send month)."),
    ("relative_days", "tomorrow/tmrw/2moro/2moz = +1, day after tomorrow = +2, yesterday/ytd/last night = -1, "
                      "day before yesterday = -2, 'N days/weeks ago' = a single day N days/weeks before; today / "
                      "this morning / tonight / this evening / 2nite = the send date."),
    ("day_of_month", "'the 20th' without a month = next date with that day-of-month strictly after the send date "
                     "(future) or most recent strictly before (past); never the send day itself. A stated weekday "
                     "('friday the 26th') always matches."),
    ("numeric", "numeric dates are DAY-FIRST (14/3, 05/06, 3.11., 14/03/25, 22.06.2026); two-digit years are "
                "20yy; without a year the next occurrence (future) or most recent (past); 'a-b/m' and 'd/m - d/m' "
                "are ranges. Chats whose id ends in '-us' are American: numeric dates there are MONTH-FIRST "
                "(11/23, 7/4, 12/18) and the note says so."),
    ("named_days", "christmas=12-25, xmas eve=12-24, xmas eve eve=12-23, boxing day=12-26, nye=12-31, new year's "
                   "day=01-01, burns night=01-25, valentine's=02-14, st patrick's=03-17, halloween=10-31, bonfire "
                   "night=11-05; easter sunday by the Gregorian computus, good friday=-2, easter monday=+1, pancake "
                   "day (shrove tuesday)=-47, UK mothering sunday=-21; UK 'bank holiday monday' sent in August = "
                   "last Monday of August, UK spring bank holiday = last Monday of May; US (chat marked -us): "
                   "thanksgiving = 4th Thursday of November, memorial day = last Monday of May, labor day = 1st "
                   "Monday of September. Future mention = next occurrence on/after the send date; past = most "
                   "recent before."),
    ("late_night", "a small-hours clock time (00:00-06:59) mentioned late in the evening (after 20:00) refers to "
                   "the next calendar day; messages sent 00:00-03:59 before sleeping: 'in the morning' / 'later' = "
                   "the same calendar date as the timestamp."),
    ("clock_times", "bare hours are read the natural way for the activity (dinner/quiz/book club at 8 -> 20:00, "
                    "lunch at 1 -> 13:00, 'half eight' dinner -> 20:30, club at 1 sent 21:45 -> 01:00); '6ish' -> "
                    "18:00."),
    ("mixed", "a message with a past and a future date: gold is the event the message is about; a past date that "
              "is only when something was booked/said/decided, or a bracketed aside, is not gold. The note says "
              "which one."),
    ("corrections", "both messages of a pair are group 'correction'; the later one (same chat, same speaker) "
                    "carries 'corrects' = the earlier id and gold = the new time; about half restate the event "
                    "with no cue word. Acknowledgements from others are group 'distractor' with null gold."),
    ("questions", "question gold follows the same rules relative to 'asked'; 'what's on X' = coming occurrence, "
                  "'what did I do X' = most recent past; 'last month' etc. give ranges; a question without a date "
                  "('when's the dentist?') has null gold."),
])

# --------------------------------------------------------------- building --


def parse(sent):
    return dt.datetime.strptime(sent, "%Y-%m-%d %H:%M")


def build():
    rng = random.Random(SEED)
    chats = list(CHATS)
    rng.shuffle(chats)                     # ids do not reveal the group
    messages, units = [], []
    mid = 0
    for ci, c in enumerate(chats, 1):
        cid = "c%03d" % ci + ("-us" if c["us"] else "")
        ids, prev_sent = [], None
        unit = dict(stratum=c["stratum"], messages=[], questions=[])
        for x in c["msgs"]:
            s = parse(x["sent"])
            assert prev_sent is None or s >= prev_sent, ("chat not in time order", cid)
            prev_sent = s
            mid += 1
            rec = OrderedDict([("id", "m%03d" % mid), ("chat", cid), ("group", x["group"]),
                               ("sent", s.strftime("%Y-%m-%dT%H:%M")), ("speaker", x["speaker"]),
                               ("text", x["text"]), ("gold", x["gold"](s) if x["gold"] else None),
                               ("note", x["note"])])
            if x["gold"] is not None:
                assert rec["gold"] is not None, ("gold function returned None", rec)
            if x["corrects"] is not None:
                ref = unit["messages"][x["corrects"]]
                assert ref["speaker"] == x["speaker"] and ref["group"] == "correction"
                assert ref["gold"] != rec["gold"]
                rec["corrects"] = ref["id"]
            ids.append(rec["id"])
            unit["messages"].append(rec)
            messages.append(rec)
        units.append(unit)
    qs = list(QUESTIONS)
    rng.shuffle(qs)
    questions = []
    for qi, x in enumerate(qs, 1):
        s = parse(x["asked"])
        rec = OrderedDict([("id", "q%03d" % qi), ("group", "question"),
                           ("asked", s.strftime("%Y-%m-%dT%H:%M")), ("text", x["text"]),
                           ("gold", x["gold"](s)), ("note", x["note"])])
        questions.append(rec)
        units.append(dict(stratum="question", messages=[], questions=[rec]))

    # split: whole chats / single questions, stratified by the unit's stratum
    dev_ids = set()
    by_stratum = OrderedDict()
    for u in units:
        by_stratum.setdefault(u["stratum"], []).append(u)
    for stratum in sorted(by_stratum):
        us = list(by_stratum[stratum])
        rng.shuffle(us)
        for u in us[:round(len(us) / 3)]:
            dev_ids.update(r["id"] for r in u["messages"] + u["questions"])
    return messages, questions, dev_ids


def counts(msgs, qs):
    days = sorted({r["sent"][:10] for r in msgs})
    by = Counter(r["group"] for r in msgs + qs)
    return OrderedDict([
        ("messages", len(msgs)),
        ("chats", len({r["chat"] for r in msgs})),
        ("questions", len(qs)),
        ("send_days", len(days)),
        ("first_sent", days[0] if days else None),
        ("last_sent", days[-1] if days else None),
        ("by_group", OrderedDict(sorted(by.items()))),
    ])


def dump(name, msgs, qs):
    doc = OrderedDict([("conventions", CONVENTIONS), ("counts", counts(msgs, qs)),
                       ("messages", msgs), ("questions", qs)])
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
        f.write("\n")


def check(messages, questions):
    days = {r["sent"][:10] for r in messages}
    dates = [dt.date.fromisoformat(d) for d in days]
    assert len(messages) >= 180 and len(questions) >= 30 and len(days) >= 40
    assert {d.year for d in dates} >= {2023, 2024, 2025, 2026}
    assert {d.weekday() for d in dates} == set(range(7)), "every weekday"
    assert any(d.day == calendar.monthrange(d.year, d.month)[1] for d in dates), "month ends"
    assert any((d.month, d.day) == (12, 31) for d in dates), "year end"
    ids = [r["id"] for r in messages + questions]
    assert len(ids) == len(set(ids))
    corr = [r for r in messages if "corrects" in r]
    return corr


def main():
    messages, questions, dev_ids = build()
    corr = check(messages, questions)
    dev_m = [r for r in messages if r["id"] in dev_ids]
    dev_q = [r for r in questions if r["id"] in dev_ids]
    test_m = [r for r in messages if r["id"] not in dev_ids]
    test_q = [r for r in questions if r["id"] not in dev_ids]
    assert {r["chat"] for r in dev_m}.isdisjoint({r["chat"] for r in test_m})
    dump("dev.json", dev_m, dev_q)
    dump("test.json", test_m, test_q)
    dump("all.json", messages, questions)
    c_all = counts(messages, questions)
    print("messages %d in %d chats, %d send days (%s .. %s), questions %d, corrections %d"
          % (c_all["messages"], c_all["chats"], c_all["send_days"], c_all["first_sent"],
             c_all["last_sent"], c_all["questions"], len(corr)))
    if "--table" in sys.argv:
        cd, ct = counts(dev_m, dev_q)["by_group"], counts(test_m, test_q)["by_group"]
        print("| group | dev | test | total |\n|---|---|---|---|")
        for g in sorted(c_all["by_group"]):
            print("| %s | %d | %d | %d |" % (g, cd.get(g, 0), ct.get(g, 0), c_all["by_group"][g]))
        print("| **total** | %d | %d | %d |" % (len(dev_m) + len(dev_q), len(test_m) + len(test_q),
                                                len(messages) + len(questions)))


if __name__ == "__main__":
    main()
