#!/usr/bin/env python3
"""Build a blind test set of informal chat messages + questions with gold dates.

Gold dates are computed in code from the send/asked datetime with stdlib
datetime/calendar arithmetic (see helper functions below), never typed by hand
(except where a message itself states a full date, which is then checked
against any weekday the message also states).

Outputs: dev.json (1/3), test.json (2/3), all.json, README.md in this directory.
"""
import calendar
import datetime as dt
import json
import os
import random
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20240917

WD = {"mon": 0, "tue": 1, "wed": 2, "thu": 3, "fri": 4, "sat": 5, "sun": 6}

CONVENTIONS = {
    "gold_format": "gold is {start, end} ISO dates inclusive (single day: start == end), plus optional time HH:MM (24h, timezone-naive local) when the message/question gives a clock time (or, in a chat, when the time clearly carries over from the event being discussed); null when there is no date to extract.",
    "what_gold_means": "the date (range) when the thing referred to happens/happened. When a message names an old and a new time (reschedules, 'was supposed to be X but now Y', corrections), gold is the new/operative time.",
    "bare_weekday_future": "A bare weekday ('thurs', 'on friday') in a plan / future-tense message = the next occurrence strictly after the send date. Cases where the named weekday equals the send weekday are avoided (no same-day ambiguity), except when the message says today/tonight.",
    "bare_weekday_past": "A bare weekday in a report / past-tense message = the most recent occurrence strictly before the send date.",
    "last_weekday": "'last sat' = the most recent Saturday strictly before the send date.",
    "this_weekday": "'this sat' = the upcoming Saturday of the current Mon-Sun week, strictly after today.",
    "next_weekday": "'next tues' = the Tuesday of the following Mon-Sun calendar week. Most cases are chosen so that this coincides with 'next occurrence'; cases where the two readings differ say so in their note.",
    "weekday_next_week": "'thursday next week' = Thursday of the following Mon-Sun week.",
    "thursday_week": "'thursday week' (British) = the coming Thursday + 7 days. 'saturday after next' = the coming Saturday + 7 days.",
    "this_weekend": "'this weekend' (sent Mon-Fri) = the upcoming Saturday-Sunday.",
    "next_weekend": "'next weekend' = Saturday-Sunday of the following Mon-Sun week (only used where contrasted with 'this weekend' or otherwise unambiguous). 'the weekend after' (after 'this weekend') and 'the weekend after next' = upcoming weekend + 7 days.",
    "last_weekend": "'last weekend' / 'at the weekend' in past tense (sent Mon-Fri) = the most recent Saturday-Sunday before the send date.",
    "weeks": "'next week' / 'last week' = the following / previous Mon-Sun week as a range.",
    "months": "a month name alone = the whole month (next occurrence for future, most recent past for past).",
    "relative_days": "'tmrw' = send date + 1, 'day after tmrw' = +2, 'yesterday' = -1, 'N days/weeks ago' = send date - N days/weeks (a single day), 'in 2 weeks' = send date + 14.",
    "day_of_month": "'the 28th' without month = the next date with that day-of-month strictly after the send date (future) or the most recent one strictly before (past).",
    "numeric": "Numeric dates are DAY-FIRST (dd/mm, dd/mm/yy, dd.mm, d/m). Two-digit years are 20yy. Without a year: next occurrence strictly after the send date for future/plans, most recent strictly before for past-tense messages. 'a-b' numeric ranges give start/end.",
    "named_days": "christmas=12-25, xmas eve=12-24, 'christmas eve eve'=12-23, boxing day=12-26, nye=12-31, new year's day=01-01, halloween=10-31, valentine's=02-14, easter sunday by the Gregorian computus, good friday=easter-2, easter monday=easter+1, UK 'bank holiday monday' in August = last Monday of August (England), UK late-May/spring bank holiday = last Monday of May, US thanksgiving = 4th Thursday of November, UK mothering sunday = easter-21, US mother's day = 2nd Sunday of May. Future mentions: next occurrence on/after the send date; past mentions: most recent before.",
    "late_night": "A small-hours clock time (00:00-05:59) mentioned in the evening (sent 18:00-23:59), with or without 'tonight', refers to the next calendar day. 'at 12 tonight' = 00:00 next day. Messages sent 00:00-03:59 by someone who hasn't slept: 'tomorrow'/'later' = the coming daytime, i.e. the SAME calendar date as the send timestamp.",
    "clock_times": "Bare hours are read the natural way for the activity (dinner at 7 -> 19:00; 'at 2' for an afterparty sent at 22:30 -> 02:00).",
    "questions": "Question gold follows the same rules, relative to the asked datetime; 'what's on <date>' = the coming occurrence, 'what happened on <date>' = the most recent past one. A question without a date ('when's the dentist?') has gold null. '2 weeks ago' = a single day (asked date - 14).",
    "distractors": "Messages with no date to extract (including words like 'wednesday' the TV show, 'thursday' the album, 'may' modal, '2/3' a fraction) have gold null and group 'distractor'.",
}

# --------------------------------------------------------------------------
# date helpers (all computed)
# --------------------------------------------------------------------------

def iso(d):
    return d.isoformat()


def G(start, end=None, time=None):
    g = {"start": iso(start), "end": iso(end or start)}
    if time:
        g["time"] = time
    return g


def next_strict(d, wd):
    k = (wd - d.weekday()) % 7
    return d + dt.timedelta(days=k or 7)


def prev_strict(d, wd):
    k = (d.weekday() - wd) % 7
    return d - dt.timedelta(days=k or 7)


def monday_of(d):
    return d - dt.timedelta(days=d.weekday())


def easter(y):
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
    return first + dt.timedelta(days=(wd - first.weekday()) % 7 + 7 * (n - 1))


def last_weekday(y, m, wd):
    last = dt.date(y, m, calendar.monthrange(y, m)[1])
    return last - dt.timedelta(days=(last.weekday() - wd) % 7)


NAMED = {
    "christmas": lambda y: dt.date(y, 12, 25),
    "xmas_eve": lambda y: dt.date(y, 12, 24),
    "xmas_eve_eve": lambda y: dt.date(y, 12, 23),
    "boxing": lambda y: dt.date(y, 12, 26),
    "nye": lambda y: dt.date(y, 12, 31),
    "newyear": lambda y: dt.date(y, 1, 1),
    "halloween": lambda y: dt.date(y, 10, 31),
    "valentine": lambda y: dt.date(y, 2, 14),
    "easter": easter,
    "good_friday": lambda y: easter(y) - dt.timedelta(days=2),
    "easter_monday": lambda y: easter(y) + dt.timedelta(days=1),
    "uk_summer_bh": lambda y: last_weekday(y, 8, 0),
    "uk_spring_bh": lambda y: last_weekday(y, 5, 0),
    "us_thanksgiving": lambda y: nth_weekday(y, 11, 3, 4),
    "uk_mothering_sunday": lambda y: easter(y) - dt.timedelta(days=21),
    "us_mothers_day": lambda y: nth_weekday(y, 5, 6, 2),
}

# Gold spec factories: each returns f(sent_datetime, chat_golds) -> gold dict/None


def nxt(wd, time=None):
    def f(s, c):
        d = s.date()
        assert d.weekday() != WD[wd], ("same-weekday ambiguity", s, wd)
        return G(next_strict(d, WD[wd]), time=time)
    return f


def prv(wd, time=None):
    def f(s, c):
        d = s.date()
        assert d.weekday() != WD[wd], ("same-weekday ambiguity", s, wd)
        return G(prev_strict(d, WD[wd]), time=time)
    return f


def since(wd):
    def f(s, c):
        d = s.date()
        return G(prev_strict(d, WD[wd]), d)
    return f


def rel(n, time=None):
    return lambda s, c: G(s.date() + dt.timedelta(days=n), time=time)


def today(time=None):
    return rel(0, time)


def nextweek(wd, time=None):
    return lambda s, c: G(monday_of(s.date()) + dt.timedelta(days=7 + WD[wd]), time=time)


def week_after(wd, time=None):  # "thursday week", "saturday after next"
    def f(s, c):
        d = s.date()
        assert d.weekday() != WD[wd]
        return G(next_strict(d, WD[wd]) + dt.timedelta(days=7), time=time)
    return f


def this_weekend(plus_weeks=0):
    def f(s, c):
        d = s.date()
        assert d.weekday() <= 4, "this weekend only used Mon-Fri"
        sat = d + dt.timedelta(days=5 - d.weekday()) + dt.timedelta(days=7 * plus_weeks)
        return G(sat, sat + dt.timedelta(days=1))
    return f


def next_weekend():
    def f(s, c):
        sat = monday_of(s.date()) + dt.timedelta(days=12)
        return G(sat, sat + dt.timedelta(days=1))
    return f


def last_weekend():
    def f(s, c):
        d = s.date()
        assert d.weekday() <= 4
        sat = prev_strict(d, 5)
        return G(sat, sat + dt.timedelta(days=1))
    return f


def next_week_range():
    def f(s, c):
        m = monday_of(s.date()) + dt.timedelta(days=7)
        return G(m, m + dt.timedelta(days=6))
    return f


def last_week_range():
    def f(s, c):
        m = monday_of(s.date()) - dt.timedelta(days=7)
        return G(m, m + dt.timedelta(days=6))
    return f


def dom(day, direction="fwd", time=None):
    """'the 28th': day of month, next strictly after / most recent strictly before."""
    def f(s, c):
        d = s.date()
        assert d.day != day, "same day-of-month ambiguity"
        y, m = d.year, d.month
        step = 1 if direction == "fwd" else -1
        while True:
            if day <= calendar.monthrange(y, m)[1]:
                cand = dt.date(y, m, day)
                if (direction == "fwd" and cand > d) or (direction == "back" and cand < d):
                    return G(cand, time=time)
            m += step
            if m == 13:
                y, m = y + 1, 1
            if m == 0:
                y, m = y - 1, 12
    return f


def _dm_date(s, day, month, year, direction):
    d = s.date()
    if year is not None:
        if year < 100:
            year += 2000
        return dt.date(year, month, day)
    cand = dt.date(d.year, month, day)
    assert cand != d, "same-date ambiguity"
    if direction == "fwd":
        return cand if cand > d else dt.date(d.year + 1, month, day)
    return cand if cand < d else dt.date(d.year - 1, month, day)


def dm(day, month, year=None, direction="fwd", time=None, weekday=None):
    """Explicit day+month (numeric day-first or written); optional weekday check."""
    def f(s, c):
        x = _dm_date(s, day, month, year, direction)
        if weekday is not None:
            assert x.weekday() == WD[weekday], ("weekday mismatch", x, weekday)
        return G(x, time=time)
    return f


def dm_range(d1, m1, d2, m2, year=None, direction="fwd"):
    def f(s, c):
        a = _dm_date(s, d1, m1, year, direction)
        b = _dm_date(s, d2, m2, year, direction)
        if b < a:
            b = dt.date(b.year + 1, b.month, b.day)
        return G(a, b)
    return f


def month_range(month, direction="fwd"):
    def f(s, c):
        d = s.date()
        if direction == "fwd":
            y = d.year if month >= d.month else d.year + 1
        else:
            y = d.year if month < d.month else d.year - 1
        return G(dt.date(y, month, 1), dt.date(y, month, calendar.monthrange(y, month)[1]))
    return f


def named(name, direction="fwd", time=None):
    def f(s, c):
        d = s.date()
        fn = NAMED[name]
        if direction == "fwd":
            x = fn(d.year)
            if x < d:
                x = fn(d.year + 1)
        else:
            x = fn(d.year)
            if x >= d:
                x = fn(d.year - 1)
        return G(x, time=time)
    return f


def late(hhmm):
    """Clock time said late in the evening: small hours -> next calendar day."""
    def f(s, c):
        h = int(hhmm[:2])
        d = s.date()
        if h < 6 and s.hour >= 18:
            d += dt.timedelta(days=1)
        return G(d, time=hhmm)
    return f


def ref(k, time=None, keep_time=True):
    """Same date as message k (1-based) in this chat, optionally new time."""
    def f(s, c):
        g = dict(c[k - 1])
        if time:
            g["time"] = time
        elif not keep_time:
            g.pop("time", None)
        return g
    return f


def fixed(y, m, d, time=None, weekday=None):
    def f(s, c):
        x = dt.date(y, m, d)
        if weekday is not None:
            assert x.weekday() == WD[weekday], ("weekday mismatch", x, weekday)
        return G(x, time=time)
    return f


NULL = lambda s, c: None

# --------------------------------------------------------------------------
# chats: (sent "YYYY-MM-DD HH:MM", speaker, group, text, gold_spec, note[, extra])
# extra = {"corrects": k} (1-based index of the corrected message in the chat)
# --------------------------------------------------------------------------

CHATS = [
    # ---------------- plan ----------------
    [("2024-03-11 18:20", "maya", "plan", "can u do thurs? 🍕", nxt("thu"), "bare weekday in plan -> next thu"),
     ("2024-03-11 18:24", "jon", "plan", "ya thurs works 👍", nxt("thu"), "same thursday, reply")],
    [("2023-06-14 12:05", "tom", "plan", "dinner sat? 🍝", nxt("sat"), "next sat"),
     ("2023-06-14 12:31", "me", "plan", "yesss 8ish?", nxt("sat", "20:00"), "time for the sat dinner from chat context")],
    [("2025-01-20 22:47", "priya", "plan", "see you tmrw x", rel(1), "tmrw = +1 (sent 22:47, not after midnight)")],
    [("2024-09-09 10:15", "sam", "plan", "r u free on the 28th?", dom(28), "day-of-month, next occurrence")],
    [("2023-11-22 19:02", "leo", "plan", "cant do this wknd, next wknd? 🙌", next_weekend(), "next weekend contrasted with this weekend -> following week's Sat-Sun")],
    [("2024-06-03 08:30", "ana", "plan", "thursday week for the bbq?", week_after("thu"), "thursday week = coming thu + 7")],
    [("2025-05-14 17:40", "kat", "plan", "saturday after next then 👍", week_after("sat"), "coming sat + 7")],
    [("2024-02-14 10:10", "ben", "plan", "this weekend's rammed for me tbh", this_weekend(), "this weekend = upcoming Sat-Sun"),
     ("2024-02-14 10:11", "ben", "plan", "the weekend after?", this_weekend(1), "weekend after this weekend")],
    [("2023-12-09 14:00", "jess", "plan", "nye party at mine!! 🎉🥂", named("nye"), "nye = 12-31")],
    [("2025-03-03 11:11", "dan", "plan", "cant do lunch on thursday sorry 😩", nxt("thu"), "negated plan still refers to next thu")],
    [("2024-10-14 20:20", "mum", "plan", "r u coming for sunday lunch", nxt("sun"), "next sun")],
    [("2023-04-26 09:00", "raj", "plan", "gym tmrw 7am?", rel(1, "07:00"), "tmrw 7am")],
    [("2025-08-20 16:00", "zoe", "plan", "wanna grab coffee fri morning", nxt("fri"), "next fri")],
    [("2024-07-09 13:30", "alex", "plan", "in 2 weeks? ill be back by then", rel(14), "in 2 weeks = +14")],
    [("2023-09-14 21:15", "nina", "plan", "picnic on the 2nd? 🧺", dom(2), "the 2nd -> next month")],
    [("2025-10-20 12:00", "omar", "plan", "the day after tmrw works for me", rel(2), "+2")],
    [("2024-11-14 18:00", "ella", "plan", "lets go cinema this sat", nxt("sat"), "this sat (sent thu)")],
    [("2023-01-09 09:45", "sam", "plan", "ski trip in march?? ⛷️", month_range(3), "month range")],
    [("2025-06-26 10:00", "chris", "plan", "cu mon at 9am", nxt("mon", "09:00"), "next mon 09:00")],
    [("2024-05-20 15:30", "lucy", "plan", "r we still on for weds?", nxt("wed"), "next wed")],

    # ---------------- reschedule ----------------
    [("2024-09-10 09:12", "me", "reschedule", "dentist moved to Thursday 12 September", dm(12, 9, weekday="thu"), "explicit date, weekday consistent")],
    [("2023-03-14 17:20", "kev", "reschedule", "they pushed the meeting to the 20th ugh", dom(20), "the 20th, same month")],
    [("2025-02-03 12:40", "sara", "reschedule", "quiz night postponed until friday 😒", nxt("fri"), "new date = next fri")],
    [("2024-04-09 08:05", "liam", "reschedule", "standup brought forward to weds", nxt("wed"), "next wed")],
    [("2023-07-20 14:00", "amy", "reschedule", "hair appt rescheduled for the 3rd", dom(3), "the 3rd -> next month")],
    [("2025-09-03 16:45", "jack", "reschedule", "call changed to next tues", nextweek("tue"), "next tues (sent wed: both readings agree)")],
    [("2024-01-09 19:30", "mia", "reschedule", "yoga's moved to 6:30pm tmrw", rel(1, "18:30"), "tmrw 18:30")],
    [("2023-10-20 18:00", "noah", "reschedule", "match got pushed back a week so its next sat now", nextweek("sat"), "sent fri: 'next sat' = following week's sat (also 'pushed back a week' from tomorrow)")],
    [("2025-04-14 11:00", "grace", "reschedule", "viewing now on the 22nd at 11", dom(22, time="11:00"), "the 22nd 11:00")],
    [("2024-12-09 09:00", "boss", "reschedule", "team lunch moved to 18 dec", dm(18, 12), "explicit date")],
    [("2023-05-09 13:15", "ola", "reschedule", "physio cancelled tmrw, rebooked for fri 10am", nxt("fri", "10:00"), "new = fri 10:00 (tmrw is the cancelled one)")],
    [("2025-11-03 21:00", "ivy", "reschedule", "party's pushed to the 15th now 🙄", dom(15), "the 15th")],
    [("2024-08-14 23:10", "dev", "reschedule", "flight delayed to tmrw morning 😭", rel(1), "tmrw (sent 23:10, before midnight)")],
    [("2023-02-09 08:30", "hannah", "reschedule", "parents eve moved from thurs to mon", nxt("mon"), "sent thu; new = next mon")],
    [("2025-07-14 10:30", "finn", "reschedule", "ok so the interview is now wednesday 23rd july", dm(23, 7, weekday="wed"), "explicit date")],
    [("2024-03-26 16:00", "rosa", "reschedule", "dinner moved up to 7 tonight instead of 8", today("19:00"), "today 19:00")],
    [("2023-08-09 10:00", "sid", "reschedule", "they bumped my surgery to 4 sept", dm(4, 9), "explicit date")],
    [("2025-01-14 12:00", "max", "reschedule", "book club's now thursday week", week_after("thu"), "coming thu + 7")],
    [("2024-06-20 09:40", "eve", "reschedule", "recital rescheduled to saturday 29th", dm(29, 6, weekday="sat"), "sat 29th in current month")],
    [("2023-11-14 17:00", "pat", "reschedule", "delivery rearranged for monday between 8-12", nxt("mon"), "next mon (time window, no single time)")],

    # ---------------- report ----------------
    [("2024-09-12 20:00", "me", "report", "went to the gym on monday 💪", prv("mon"), "past -> most recent mon")],
    [("2023-06-26 09:10", "jon", "report", "saw her last sat lol", prv("sat"), "last sat = most recent sat")],
    [("2025-03-14 13:00", "nat", "report", "we got back on the 2nd", dom(2, "back"), "past day-of-month")],
    [("2024-02-20 22:00", "me", "report", "3 days ago i ate a whole pizza", rel(-3), "-3")],
    [("2023-10-09 11:30", "kim", "report", "the party on friday was wild 🤯", prv("fri"), "past fri")],
    [("2025-05-26 10:00", "tom", "report", "yesterday was brutal", rel(-1), "-1")],
    [("2024-07-03 23:50", "ali", "report", "last night was mad", rel(-1), "last night = previous evening (sent 23:50)")],
    [("2023-12-20 18:45", "joe", "report", "finished the book last week", last_week_range(), "previous Mon-Sun")],
    [("2025-10-14 15:00", "bea", "report", "went to the dentist on the 9th", dom(9, "back"), "past 9th")],
    [("2024-11-26 12:00", "sue", "report", "how was ur weekend?", last_weekend(), "past weekend"),
     ("2024-11-26 12:30", "me", "report", "good! we saw wicked at the weekend", last_weekend(), "past weekend")],
    [("2023-04-03 08:00", "ed", "report", "been sick since thurs 🤒", since("thu"), "since thu -> range to today")],
    [("2025-08-26 19:00", "jay", "report", "a week ago today we were in lisbon", rel(-7), "-7")],
    [("2024-05-14 21:00", "fay", "report", "on sunday we went hiking", prv("sun"), "past sun")],
    [("2023-09-26 14:00", "rob", "report", "met him back in june", month_range(6, "back"), "past month")],
    [("2025-06-09 09:30", "ada", "report", "the concert last fri was unreal", prv("fri"), "last fri")],
    [("2024-10-26 11:00", "gus", "report", "did the 10k on weds 🏃", prv("wed"), "past wed")],
    [("2023-01-26 20:00", "liv", "report", "moved in on the 14th", dom(14, "back"), "past 14th")],
    [("2025-12-14 17:00", "ben", "report", "2 weeks ago i quit my job lol", rel(-14), "-14")],
    [("2024-04-20 10:00", "hal", "report", "the day before yesterday i lost my keys", rel(-2), "-2")],

    # ---------------- mixed ----------------
    [("2024-05-09 12:00", "jo", "mixed", "was supposed to be friday but now it's monday", nxt("mon"), "new time = next mon")],
    [("2025-02-26 09:00", "me", "mixed", "i'm off thursday next week", nextweek("thu"), "thu of following week (not tomorrow)")],
    [("2024-01-23 17:30", "kai", "mixed", "leaving globex on friday", nxt("fri"), "present progressive = future fri")],
    [("2023-03-20 10:00", "lin", "mixed", "the dentist rescheduled me to thursday", nxt("thu"), "past verb, future appointment")],
    [("2025-09-20 11:00", "kai", "mixed", "handed my notice in on monday 🎉", prv("mon"), "past tense -> past mon")],
    [("2025-09-17 18:00", "kai", "mixed", "handing my notice in on monday 😬", nxt("mon"), "progressive -> future mon")],
    [("2024-08-26 13:00", "rhi", "mixed", "was meant to go tues but we're going weds now", nxt("wed"), "new = next wed")],
    [("2023-07-26 08:20", "ben", "mixed", "friday didn't work so we did it sunday instead", prv("sun"), "past: did it sunday")],
    [("2024-12-03 19:00", "meg", "mixed", "couldn't make it monday, can u do thurs?", nxt("thu"), "proposal = next thu")],
    [("2025-04-09 20:00", "sam", "mixed", "i saw mike on monday", prv("mon"), "past mon"),
     ("2025-04-09 20:02", "jo", "mixed", "oh i'll see him monday then", nxt("mon"), "future mon")],
    [("2023-10-26 16:00", "kev", "mixed", "the thing on tuesday got moved, it's now wednesday", nxt("wed"), "new = next wed")],
    [("2024-03-09 15:00", "ali", "mixed", "on friday i'll have been here a year", nxt("fri"), "future perfect -> next fri")],
    [("2025-11-20 10:00", "nat", "mixed", "we were gonna do sat but let's push to sun", nxt("sun"), "new = next sun")],
    [("2023-05-20 12:00", "eve", "mixed", "i'm seeing the doc on thursday", nxt("thu"), "progressive future")],
    [("2024-10-03 09:00", "rob", "mixed", "were u at the thing on tues?", prv("tue"), "past question -> past tue"),
     ("2024-10-03 09:05", "amy", "mixed", "no 😅 are u going to the one next tues?", nextweek("tue"), "future, next tues (sent thu: both readings agree)")],
    [("2025-07-03 14:00", "tia", "mixed", "it was supposed to be today but now it's next week sometime", next_week_range(), "new = next week range")],
    [("2023-02-26 12:00", "ed", "mixed", "had a lie in today, but i'm working sat 😩", nxt("sat"), "future sat (sent sun)")],
    [("2024-06-14 08:00", "zoe", "mixed", "the dentist rang, i'm now seeing her on tuesday not wednesday", nxt("tue"), "new = next tue")],
    [("2025-01-03 13:00", "jay", "mixed", "gonna start the diet on monday (for real this time)", nxt("mon"), "future mon")],

    # ---------------- numeric (day-first) ----------------
    [("2023-09-20 18:00", "anya", "numeric", "meet on 05/10?", dm(5, 10), "5 Oct (m-first would be 10 May)")],
    [("2024-02-26 11:00", "rahul", "numeric", "flight 14.03 ✈️", dm(14, 3), "14 Mar (m-first invalid)")],
    [("2025-06-20 09:00", "claire", "numeric", "back 2/7", dm(2, 7), "2 Jul (m-first 7 Feb)")],
    [("2023-11-03 15:00", "priya", "numeric", "booked for 06/12/23", dm(6, 12, 23), "6 Dec 2023 (m-first 12 Jun)")],
    [("2024-04-03 20:00", "sana", "numeric", "party is on 4/5!!", dm(4, 5), "4 May (m-first 5 Apr)")],
    [("2025-03-09 22:00", "ollie", "numeric", "exam 11/11/25 😬", dm(11, 11, 25), "coincides")],
    [("2024-08-09 10:00", "dev", "numeric", "arrived on 01/08", dm(1, 8, direction="back"), "past 1 Aug (m-first 8 Jan)")],
    [("2023-01-14 13:00", "mo", "numeric", "check in 20/1 check out 23/1", dm_range(20, 1, 23, 1), "range 20-23 Jan")],
    [("2025-10-09 08:00", "lea", "numeric", "deadline 31.10", dm(31, 10), "31 Oct")],
    [("2024-12-14 19:00", "kiran", "numeric", "can u do 3/1?", dm(3, 1), "3 Jan next year (m-first 1 Mar)")],
    [("2023-06-09 12:00", "harry", "numeric", "tickets for 12/08/2023 sorted 🎫", dm(12, 8, 2023), "12 Aug (m-first 8 Dec)")],
    [("2025-05-03 10:00", "isha", "numeric", "interview 7/5 at 2pm", dm(7, 5, time="14:00"), "7 May 14:00 (m-first 5 Jul)")],
    [("2024-09-26 21:00", "tom", "numeric", "we met on 10/9 remember", dm(10, 9, direction="back"), "past 10 Sep (m-first 9 Oct)")],
    [("2023-03-26 09:00", "gem", "numeric", "rent due 1/4", dm(1, 4), "1 Apr (m-first 4 Jan)")],
    [("2025-08-14 17:00", "arjun", "numeric", "wedding's 13/9/25", dm(13, 9, 25), "13 Sep 2025")],
    [("2024-01-03 16:00", "fran", "numeric", "hols 15/02-22/02", dm_range(15, 2, 22, 2), "range")],
    [("2023-10-14 11:00", "piet", "numeric", "moving on 8.11.23", dm(8, 11, 23), "8 Nov (m-first 11 Aug)")],
    [("2025-11-26 20:00", "nick", "numeric", "gig on 5/5? thats ages away lol", dm(5, 5), "coincides; next year")],
    [("2024-07-20 14:00", "mum", "numeric", "born 03/02/1990 btw (for the form)", dm(3, 2, 1990), "3 Feb 1990 (m-first 2 Mar)")],
    [("2023-08-26 22:00", "lou", "numeric", "train 09/09 6:45", dm(9, 9, time="06:45"), "coincides")],
    [("2025-02-20 10:00", "rav", "numeric", "paid u on 17/02", dm(17, 2, direction="back"), "past 17 Feb")],

    # ---------------- named ----------------
    [("2024-12-03 18:00", "amy", "named", "what u doing for xmas 🎄", named("christmas"), "12-25")],
    [("2023-12-20 12:00", "jon", "named", "xmas eve drinks?", named("xmas_eve"), "12-24")],
    [("2025-12-20 15:00", "maya", "named", "nye plans??", named("nye"), "12-31")],
    [("2024-12-26 22:00", "leo", "named", "hangover on new year's day gonna be rough", named("newyear"), "next jan 1")],
    [("2024-03-14 19:00", "nan", "named", "easter sunday lunch at nans", named("easter"), "easter 2024")],
    [("2025-10-20 21:00", "jess", "named", "halloween party at jess's 🎃", named("halloween"), "10-31")],
    [("2024-02-09 20:00", "sam", "named", "any plans for valentines? 😏", named("valentine"), "02-14")],
    [("2023-08-14 13:00", "dave", "named", "bbq on bank holiday monday?", named("uk_summer_bh"), "UK Aug bank holiday = last Mon Aug")],
    [("2024-05-14 18:00", "kat", "named", "camping on the late may bank hol monday?", named("uk_spring_bh"), "UK spring bank holiday = last Mon May")],
    [("2023-11-09 17:00", "brad", "named", "thanksgiving at ours this yr 🦃", named("us_thanksgiving"), "4th thu Nov")],
    [("2025-12-09 10:00", "ella", "named", "boxing day walk?", named("boxing"), "12-26")],
    [("2025-03-20 12:00", "sis", "named", "mothering sunday lunch? need to book", named("uk_mothering_sunday"), "UK: easter-21 (not the coming Sunday)")],
    [("2024-05-03 09:00", "kayla", "named", "mother's day brunch w mom 🌷", named("us_mothers_day"), "US 2nd Sun May")],
    [("2023-12-26 11:00", "rob", "named", "xmas was chaos lol", named("christmas", "back"), "past xmas")],
    [("2025-01-03 12:00", "tia", "named", "nye was class", named("nye", "back"), "past nye")],
    [("2023-04-03 08:00", "ola", "named", "good friday off work? 🙏", named("good_friday"), "easter 2023 - 2")],
    [("2025-04-14 19:00", "finn", "named", "easter monday at the beach?", named("easter_monday"), "easter 2025 + 1")],
    [("2024-11-02 13:00", "zoe", "named", "halloween was sick 👻", named("halloween", "back"), "past 10-31")],
    [("2023-02-20 21:00", "mia", "named", "valentine's was a disaster tbh", named("valentine", "back"), "past 02-14")],
    [("2025-11-14 08:00", "jake", "named", "thanksgiving flights are insane", named("us_thanksgiving"), "4th thu Nov 2025")],
    [("2024-12-20 16:00", "gus", "named", "christmas eve eve drinks 🍻", named("xmas_eve_eve"), "12-23")],

    # ---------------- tonight / late night ----------------
    [("2024-09-20 22:00", "luke", "tonight", "tonight at 2am lol we're still out", late("02:00"), "2am said at 22:00 -> next day")],
    [("2023-07-14 23:30", "ria", "tonight", "see u at 1am outside the club", late("01:00"), "next day 01:00")],
    [("2025-05-09 21:40", "ed", "tonight", "come round tonight at 11", today("23:00"), "same day 23:00")],
    [("2024-03-09 23:15", "kim", "tonight", "meet at 12 tonight?", late("00:00"), "midnight = next day 00:00")],
    [("2023-12-09 00:40", "sam", "tonight", "going to bed now, see u tmrw at 10", today("10:00"), "sent 00:40 before sleeping: tmrw = same calendar date")],
    [("2025-08-09 01:20", "jo", "tonight", "still up? 😂 doing brunch later at 11", today("11:00"), "sent 01:20: later at 11 = same date 11:00")],
    [("2024-06-14 22:50", "max", "tonight", "taxi booked for 3am", late("03:00"), "next day 03:00")],
    [("2023-10-20 20:00", "nina", "tonight", "drinks tonight 9pm?", today("21:00"), "same day 21:00")],
    [("2025-01-20 23:55", "raj", "tonight", "leaving at 4am for the airport", late("04:00"), "next day 04:00")],
    [("2023-03-03 23:40", "mum", "tonight", "home by 1?", late("01:00"), "next day 01:00")],
    [("2025-06-14 00:15", "ben", "tonight", "tomorrow's bbq still on?", today(), "sent 00:15: tomorrow = same date")],
    [("2024-12-20 21:00", "lucy", "tonight", "we're heading out at half 11 tonight", today("23:30"), "same day 23:30")],
    [("2023-08-20 23:20", "kev", "tonight", "can't sleep, gonna call u at 7 before work", rel(1, "07:00"), "7am next morning (sent 23:20)")],
    [("2025-10-03 22:30", "ivy", "tonight", "afterparty at 2?", late("02:00"), "next day 02:00")],
    [("2024-07-26 19:00", "dan", "tonight", "gig starts 10pm tonight 🎸", today("22:00"), "same day 22:00")],
    [("2023-05-26 23:00", "ana", "tonight", "uber at 1:30 yeah?", late("01:30"), "next day 01:30")],
    [("2025-02-14 22:15", "leo", "tonight", "tonight at 1? 💃", late("01:00"), "next day 01:00")],
    [("2024-01-14 01:30", "zoe", "tonight", "omw home, u up at 9 for the run?", today("09:00"), "sent 01:30: same date 09:00")],
    [("2023-09-09 21:00", "tom", "tonight", "still on for 12:30 tonight?", late("00:30"), "next day 00:30")],

    # ---------------- correction pairs ----------------
    [("2024-02-20 10:00", "maya", "correction", "dinner sat at 7?", nxt("sat", "19:00"), "original"),
     ("2024-02-20 10:03", "jon", "distractor", "👍", NULL, "ack"),
     ("2024-02-21 15:00", "maya", "correction", "dinner's 8 not 7", ref(1, "20:00"), "same sat, 20:00", {"corrects": 1})],
    [("2023-06-20 12:00", "tom", "correction", "meeting thurs 2pm", nxt("thu", "14:00"), "original"),
     ("2023-06-20 12:20", "tom", "correction", "sorry, my bad - it's friday 2pm", nxt("fri", "14:00"), "new = next fri 14:00", {"corrects": 1})],
    [("2025-09-09 09:00", "priya", "correction", "party's on the 20th 🎈", dom(20), "original"),
     ("2025-09-09 09:30", "ali", "distractor", "ok cool", NULL, "ack"),
     ("2025-09-10 18:00", "priya", "correction", "update: party is now the 27th", dom(27), "new = 27th", {"corrects": 1})],
    [("2024-10-09 20:00", "jack", "correction", "see u monday at 10", nxt("mon", "10:00"), "original"),
     ("2024-10-09 20:05", "jack", "correction", "actually wait, tuesday at 10", nxt("tue", "10:00"), "new = next tue 10:00", {"corrects": 1})],
    [("2023-12-03 11:00", "zoe", "correction", "xmas party fri 15th", dm(15, 12, weekday="fri"), "original"),
     ("2023-12-05 19:00", "zoe", "correction", "scratch that, it's thurs 14th", dm(14, 12, weekday="thu"), "new = thu 14 Dec", {"corrects": 1})],
    [("2025-04-26 16:00", "leo", "correction", "football tmrw 11am", rel(1, "11:00"), "original"),
     ("2025-04-26 16:30", "leo", "correction", "oops 12 not 11", ref(1, "12:00"), "same day, 12:00", {"corrects": 1})],
    [("2024-06-09 19:00", "ana", "correction", "flight lands 14/06 at 6pm", dm(14, 6, time="18:00"), "original"),
     ("2024-06-10 08:00", "ana", "correction", "correction - lands 15/06 same time", dm(15, 6, time="18:00"), "new = 15 Jun 18:00", {"corrects": 1})],
    [("2023-02-03 13:00", "sam", "correction", "lunch on weds?", nxt("wed"), "original"),
     ("2023-02-03 13:05", "rhi", "distractor", "lol same", NULL, "no date"),
     ("2023-02-03 17:00", "sam", "correction", "wait no i meant thurs", nxt("thu"), "new = next thu", {"corrects": 1})],
    [("2025-07-20 21:00", "kat", "correction", "viewing is next tues 5pm", nextweek("tue", "17:00"), "original (sent sun: both readings agree)"),
     ("2025-07-21 09:00", "kat", "correction", "sry im an idiot, weds not tues 🤦", nxt("wed", "17:00"), "new = wed same week, time carries over", {"corrects": 1})],
    [("2024-11-20 10:00", "ben", "correction", "bday drinks 30th nov!", dm(30, 11), "original"),
     ("2024-11-22 12:00", "ben", "correction", "its the 29th actually not the 30th", dm(29, 11), "new = 29 Nov", {"corrects": 1})],
    [("2023-10-03 18:00", "liv", "correction", "pick u up at 6:30am tmrw", rel(1, "06:30"), "original"),
     ("2023-10-03 18:05", "liv", "correction", "make that 7", ref(1, "07:00"), "same day 07:00", {"corrects": 1})],
    [("2025-12-14 20:00", "me", "correction", "dentist is on the 17th at 3", dom(17, time="15:00"), "original"),
     ("2025-12-15 09:30", "me", "correction", "no wait it's the 18th", dom(18, time="15:00"), "new = 18th, time carries over", {"corrects": 1})],

    # ---------------- distractors ----------------
    [("2024-08-20 14:00", "ella", "distractor", "thursday was a great album tbh", NULL, "album title, not a date")],
    [("2023-11-26 20:00", "jon", "distractor", "haha yeah 😂😂", NULL, "no date")],
    [("2025-09-14 19:00", "mia", "distractor", "omg did u see the new season of wednesday", NULL, "TV show")],
    [("2024-03-03 12:00", "sam", "distractor", "may i borrow ur charger", NULL, "modal 'may'")],
    [("2023-05-14 17:00", "dad", "distractor", "march on and stop whining lol", NULL, "verb 'march'")],
    [("2025-03-26 13:00", "priya", "distractor", "2/3 of us are vegetarian btw", NULL, "fraction, not a date")],
    [("2024-01-20 22:00", "kai", "distractor", "ok see u soon x", NULL, "no concrete date")],
    [("2023-07-09 10:00", "liv", "distractor", "sunday best outfit 👗 lmk what u think", NULL, "'sunday best' idiom")],
]

QUESTIONS = [
    ("2024-09-10 09:00", "what's on 12 september?", dm(12, 9), "coming 12 Sep"),
    ("2025-03-04 10:00", "what plans do i have on thursday?", nxt("thu"), "next thu"),
    ("2024-06-03 08:00", "what did i do last weekend?", last_weekend(), "previous Sat-Sun"),
    ("2023-11-20 12:00", "when's the dentist?", NULL, "no date"),
    ("2025-04-10 18:00", "what happened on 3/4?", dm(3, 4, direction="back"), "day-first 3 Apr, past"),
    ("2023-12-18 09:00", "anything on xmas eve?", named("xmas_eve"), "12-24"),
    ("2024-01-09 20:00", "what did we do on nye?", named("nye", "back"), "past nye"),
    ("2025-10-14 21:00", "do i have anything tmrw?", rel(1), "+1"),
    ("2023-05-09 10:00", "who did i see yesterday?", rel(-1), "-1"),
    ("2024-11-20 11:00", "what's happening this weekend?", this_weekend(), "upcoming Sat-Sun"),
    ("2025-07-02 09:00", "what's on next week?", next_week_range(), "following Mon-Sun"),
    ("2023-09-14 19:00", "what did i get up to last week?", last_week_range(), "previous Mon-Sun"),
    ("2024-02-26 12:00", "what's on 05/03?", dm(5, 3), "day-first 5 Mar"),
    ("2025-01-20 08:00", "what was i doing on friday?", prv("fri"), "past fri"),
    ("2023-08-03 13:00", "am i free saturday?", nxt("sat"), "next sat"),
    ("2024-08-14 17:00", "what's planned for the bank holiday?", named("uk_summer_bh"), "UK Aug bank hol"),
    ("2025-06-09 10:00", "what did i do in may?", month_range(5, "back"), "past May"),
    ("2023-03-20 10:00", "what's on in april?", month_range(4), "coming April"),
    ("2024-12-09 14:00", "who's free on the 21st?", dom(21), "coming 21st"),
    ("2025-11-03 16:00", "what did maya say?", NULL, "no date"),
    ("2023-10-26 12:00", "what's happening on halloween?", named("halloween"), "10-31"),
    ("2024-04-09 19:00", "what did i do 2 weeks ago?", rel(-14), "-14 (single day)"),
    ("2025-02-20 18:00", "when did i last go to the gym?", NULL, "no date"),
    ("2023-06-26 09:00", "what's on thursday week?", week_after("thu"), "coming thu + 7"),
    ("2024-07-09 11:00", "what was on 1/7?", dm(1, 7, direction="back"), "day-first 1 Jul, past"),
    ("2025-12-03 10:00", "plans for the 12/12?", dm(12, 12), "12 Dec"),
    ("2023-01-26 15:00", "what's on the weekend after next?", this_weekend(1), "upcoming weekend + 7"),
    ("2024-10-03 08:00", "what did i do the day before yesterday?", rel(-2), "-2"),
    ("2025-08-20 12:00", "anything on next fri?", nextweek("fri"), "next fri = following week's fri (readings DIFFER: next occurrence would be 2 days later)"),
    ("2024-05-20 17:00", "what's happening tonight?", today(), "today"),
    ("2023-12-27 10:00", "who came round on boxing day?", named("boxing", "back"), "past 12-26"),
]


def parse(s):
    return dt.datetime.strptime(s, "%Y-%m-%d %H:%M")


def build():
    cases = []
    for ci, chat in enumerate(CHATS, 1):
        chat_id = f"chat-{ci:03d}"
        golds = []
        prev_sent = None
        for k, row in enumerate(chat, 1):
            sent, speaker, group, text, spec, note = row[:6]
            extra = row[6] if len(row) > 6 else {}
            s = parse(sent)
            assert prev_sent is None or s >= prev_sent, ("chat not in time order", chat_id)
            prev_sent = s
            gold = spec(s, golds)
            golds.append(gold)
            case = {"id": f"{chat_id}.{k}", "chat": chat_id, "group": group,
                    "sent": s.strftime("%Y-%m-%dT%H:%M"), "speaker": speaker,
                    "text": text, "gold": gold, "note": note}
            if "corrects" in extra:
                j = extra["corrects"]
                orig = chat[j - 1]
                assert orig[1] == speaker, "correction must be by the same speaker"
                case["corrects"] = f"{chat_id}.{j}"
            cases.append(case)
    questions = []
    for qi, (asked, text, spec, note) in enumerate(QUESTIONS, 1):
        a = parse(asked)
        questions.append({"id": f"q-{qi:03d}", "group": "question",
                          "asked": a.strftime("%Y-%m-%dT%H:%M"), "text": text,
                          "gold": spec(a, []), "note": note})
    return cases, questions


def split(cases, questions):
    """Units = chats (kept whole) and single questions; stratified by the unit's
    primary group (correction if the chat holds a correction, else its first
    message's group). Seeded shuffle; 1/3 of each stratum to dev."""
    units = defaultdict(list)
    for c in cases:
        units[c["chat"]].append(c)
    for q in questions:
        units[q["id"]].append(q)
    strata = defaultdict(list)
    for uid, items in units.items():
        groups = [i["group"] for i in items]
        primary = "correction" if "correction" in groups else groups[0]
        strata[primary].append(uid)
    rng = random.Random(SEED)
    dev_units = set()
    for g in sorted(strata):
        uids = sorted(strata[g])
        rng.shuffle(uids)
        n_dev = round(len(uids) / 3)
        dev_units.update(uids[:n_dev])
    dev = {"messages": [], "questions": []}
    test = {"messages": [], "questions": []}
    for c in cases:
        (dev if c["chat"] in dev_units else test)["messages"].append(c)
    for q in questions:
        (dev if q["id"] in dev_units else test)["questions"].append(q)
    return dev, test


def counts(part):
    return dict(sorted(Counter(i["group"] for i in part["messages"] + part["questions"]).items()))


def main():
    cases, questions = build()
    dev, test = split(cases, questions)
    header = {"description": "Blind date-understanding set: informal chat messages and user questions with computed gold dates.",
              "generator": "make_blind.py", "seed": SEED, "conventions": CONVENTIONS}
    for name, part in (("dev", dev), ("test", test)):
        out = dict(header, split=name, counts=counts(part), **part)
        with open(os.path.join(HERE, f"{name}.json"), "w") as f:
            json.dump(out, f, indent=1, ensure_ascii=False)
    allp = {"messages": cases, "questions": questions}
    with open(os.path.join(HERE, "all.json"), "w") as f:
        json.dump(dict(header, split="all", counts=counts(allp), **allp), f, indent=1, ensure_ascii=False)

    cd, ct, ca = counts(dev), counts(test), counts(allp)
    groups = sorted(ca)
    table = "| group | dev | test | total |\n|---|---|---|---|\n" + "\n".join(
        f"| {g} | {cd.get(g, 0)} | {ct.get(g, 0)} | {ca[g]} |" for g in groups) + \
        f"\n| **total** | {sum(cd.values())} | {sum(ct.values())} | {sum(ca.values())} |\n"
    days = sorted({c["sent"][:10] for c in cases})
    readme = f"""# Blind date-understanding set

Built by `make_blind.py` (stdlib only; run `python3 make_blind.py` to regenerate,
output is deterministic, seed {SEED}). Written without reading any project code or
existing test tables.

Files:
- `dev.json`  - development third (use freely for debugging)
- `test.json` - held-out two thirds. **Score against test.json ONCE only**; do not
  iterate on it, do not read its cases while developing.
- `all.json`  - everything (for regeneration checks; do not develop against it)

Each file: `conventions`, `counts`, `messages` (chat messages) and `questions`.

Message: `id`, `chat` (chat id; messages of one chat are in time order and always in
the same split), `group`, `sent` (local, naive `YYYY-MM-DDTHH:MM`), `speaker`,
`text`, `gold`, `note`, and for corrections `corrects` (id of the earlier message,
same chat, same speaker, that is being corrected). Question: `id`, `group`
("question"), `asked`, `text`, `gold`, `note`.

`gold` = `{{"start": "YYYY-MM-DD", "end": "YYYY-MM-DD"[, "time": "HH:MM"]}}` inclusive,
or `null` when there is no date. Both messages of a correction pair are group
`correction`: the first carries its own original time, the second the corrected time.
Acknowledgements inside correction chats ("👍", "ok cool", "lol same") are group
`distractor` with null gold.

Messages: {len(cases)} in {len(CHATS)} chats, sent on {len(days)} distinct days
({days[0]} .. {days[-1]}). Questions: {len(questions)}.

Split: units are whole chats (and single questions), stratified by the unit's primary
group (correction if it holds a correction, else its first message's group),
seeded shuffle, round(n/3) of each stratum to dev.

## Counts by group

{table}
## Conventions

""" + "\n".join(f"- **{k}**: {v}" for k, v in CONVENTIONS.items()) + "\n"
    with open(os.path.join(HERE, "README.md"), "w") as f:
        f.write(readme)
    print(table)
    print("distinct send days:", len(days))


if __name__ == "__main__":
    main()
