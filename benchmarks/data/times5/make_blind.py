#!/usr/bin/env python3
"""Build a fifth blind set of chat messages / questions with gold dates.

Stdlib only, deterministic (seed below). Gold dates are computed in code from each
message's send datetime. Written without reading the package's code or other tables.
Run:  python3 make_blind.py   (writes dev.json, test.json, all.json next to this file)
"""
import datetime as dt
import json
import os
import random

SEED = 20261205
HERE = os.path.dirname(os.path.abspath(__file__))
D = dt.date
TD = dt.timedelta

WDF = {0: ["monday", "mon", "monday"], 1: ["tuesday", "tues", "tue"],
       2: ["wednesday", "weds", "wed"], 3: ["thursday", "thurs", "thur"],
       4: ["friday", "fri", "friday"], 5: ["saturday", "sat", "sat"],
       6: ["sunday", "sun", "sunday"]}
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december"]
MON_SHORT = ["jan", "feb", "march", "april", "may", "june", "july", "aug", "sept", "oct",
             "nov", "dec"]
EVE = [("7", "19:00"), ("8", "20:00"), ("7.30", "19:30"), ("half 7", "19:30"),
       ("6:45", "18:45"), ("8pm", "20:00"), ("half 8", "20:30")]
MORN = [("10", "10:00"), ("9.30", "09:30"), ("11am", "11:00"), ("half 10", "10:30"),
        ("9am", "09:00")]
AFT = [("2", "14:00"), ("3pm", "15:00"), ("1.30", "13:30"), ("4", "16:00"), ("2:15", "14:15")]


# ---------------------------------------------------------------- date helpers
def nxt(d, wd):
    """next occurrence of weekday wd strictly after d"""
    k = (wd - d.weekday()) % 7
    return d + TD(days=k or 7)


def prv(d, wd):
    k = (d.weekday() - wd) % 7
    return d - TD(days=k or 7)


def monday(d):
    return d - TD(days=d.weekday())


def next_week_wd(d, wd):
    return monday(d) + TD(days=7 + wd)


def next_dom(d, dom):
    y, m = d.year, d.month
    for _ in range(14):
        try:
            c = D(y, m, dom)
            if c > d:
                return c
        except ValueError:
            pass
        m += 1
        if m == 13:
            y, m = y + 1, 1
    raise ValueError


def prev_dom(d, dom):
    y, m = d.year, d.month
    for _ in range(14):
        try:
            c = D(y, m, dom)
            if c < d:
                return c
        except ValueError:
            pass
        m -= 1
        if m == 0:
            y, m = y - 1, 12
    raise ValueError


def next_md(d, m, day, strict=True):
    c = D(d.year, m, day)
    if c < d or (strict and c == d):
        c = D(d.year + 1, m, day)
    return c


def prev_md(d, m, day):
    c = D(d.year, m, day)
    if c >= d:
        c = D(d.year - 1, m, day)
    return c


def ahead_month(r, d):
    """a month 1-5 months after the current one"""
    return (d.month - 1 + r.randint(1, 5)) % 12 + 1


def month_range(y, m):
    end = (D(y + (m == 12), m % 12 + 1, 1) - TD(days=1))
    return D(y, m, 1), end


def next_month(d, m):  # month strictly after the current month
    y = d.year if m > d.month else d.year + 1
    return month_range(y, m)


def prev_month(d, m):
    y = d.year if m < d.month else d.year - 1
    return month_range(y, m)


def easter(y):
    a = y % 19
    b, c = divmod(y, 100)
    dd, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - dd - g + 15) % 30
    i, k = divmod(c, 4)
    l = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * l) // 451
    mo = (h + l - 7 * m + 114) // 31
    day = (h + l - 7 * m + 114) % 31 + 1
    return D(y, mo, day)


def last_monday(y, m):
    e = month_range(y, m)[1]
    return e - TD(days=e.weekday())


def named_next(d, fn):
    """fn(year) -> date; next occurrence strictly after d"""
    c = fn(d.year)
    return c if c > d else fn(d.year + 1)


def named_prev(d, fn):
    c = fn(d.year)
    return c if c < d else fn(d.year - 1)


def ordinal(n):
    if 11 <= n % 100 <= 13:
        return "%dth" % n
    return "%d%s" % (n, {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th"))


def G(start, end=None, time=None):
    g = {"start": start.isoformat(), "end": (end or start).isoformat()}
    if time:
        g["time"] = time
    return g


def wdname(r, wd):
    return r.choice(WDF[wd])


# ---------------------------------------------------------------- templates
# each template: f(r, s) -> (text, gold, note) or None if not applicable to send datetime s
def plan_templates():
    T = []

    def t1(r, s):
        d = s.date(); wd = r.choice([x for x in range(7) if x != d.weekday()])
        sp, hm = r.choice(EVE)
        act = r.choice(["curry", "pints", "the cinema", "bowling", "tapas"])
        return ("u free %s? thinking %s at %s" % (wdname(r, wd), act, sp), G(nxt(d, wd), time=hm),
                "bare weekday in a plan = next occurrence; evening activity, clock time read pm")
    T.append(t1)

    def t2(r, s):
        d = s.date()
        a, b = r.sample([x for x in range(7) if x != d.weekday()], 2)
        return ("cant do %s sorry but %s works for me if thats any good" % (wdname(r, a), wdname(r, b)),
                G(nxt(d, b)), "availability: the day offered (%s) is the operative date" % WDF[b][0])
    T.append(t2)

    def t3(r, s):
        d = s.date()
        act = r.choice(["the climbing", "footy", "the car boot", "yoga", "the 5 a side"])
        return ("still on for %s tmrw??" % act, G(d + TD(days=1)), "tmrw = send date + 1")
    T.append(t3)

    def t4(r, s):
        d = s.date(); sp, hm = r.choice(AFT)
        return ("2moro at %s ish? my place, ill get snacks" % sp, G(d + TD(days=1), time=hm),
                "2moro = +1; afternoon hangout so bare hour read pm")
    T.append(t4)

    def t5(r, s):
        d = s.date(); wd = r.choice([x for x in range(7) if x != d.weekday()])
        sp, hm = r.choice(EVE)
        return ("how about %s week for the quiz? starts %s" % (WDF[wd][0], sp),
                G(nxt(d, wd) + TD(days=7), time=hm), "British '<weekday> week' = coming weekday + 7")
    T.append(t5)

    def t6(r, s):
        d = s.date()
        if d.weekday() == 5:
            return None
        return ("saturday after next is my bday drinks!! u better come", G(nxt(d, 5) + TD(days=7)),
                "saturday after next = coming saturday + 7")
    T.append(t6)

    def t7(r, s):
        d = s.date()
        if d.weekday() > 4:
            return None
        sat = nxt(d, 5)
        return ("this wknd any good for u? was thinking we head to the coast", G(sat, sat + TD(days=1)),
                "this weekend sent Mon-Fri = upcoming sat-sun")
    T.append(t7)

    def t8(r, s):
        d = s.date(); wd = r.choice([x for x in range(7) if x < d.weekday()]) if d.weekday() > 0 else None
        if wd is None:
            return None
        sp, hm = r.choice(MORN)
        return ("next %s at %s for the viewing, pencil it in" % (wdname(r, wd), sp),
                G(next_week_wd(d, wd), time=hm),
                "'next <wd>' where next-week reading and next occurrence coincide; viewing in the morning")
    T.append(t8)

    def t9(r, s):
        d = s.date(); dom = r.choice([3, 9, 14, 17, 21, 26, 28])
        if dom == d.day:
            return None
        return ("r u free on the %s? wanna book the escape room" % ordinal(dom), G(next_dom(d, dom)),
                "'the Nth' in a plan = next date with that day-of-month after send date")
    T.append(t9)

    def t10(r, s):
        d = s.date()
        return ("in 2 weeks we're off to lisbon!!! cant wait", G(d + TD(days=14)), "in 2 weeks = +14 (single day)")
    T.append(t10)

    def t11(r, s):
        d = s.date()
        return ("day after tmrw is the flat viewing, 10am, can u come w me", G(d + TD(days=2), time="10:00"),
                "day after tmrw = +2")
    T.append(t11)

    def t12(r, s):
        d = s.date(); m = r.choice([x for x in range(1, 13) if x != d.month])
        return ("we're thinking %s for the big trip, whole month off hopefully" % MONTHS[m - 1],
                G(*next_month(d, m)), "month alone in a plan = whole month, next occurrence")
    T.append(t12)

    def t13(r, s):
        d = s.date(); wd = r.choice([x for x in range(5) if x != d.weekday()])
        return ("fancy a swim %s after wrk? like 6" % wdname(r, wd), G(nxt(d, wd), time="18:00"),
                "after work 'like 6' = 18:00")
    T.append(t13)

    def t14(r, s):
        d = s.date()
        a, b = r.sample([x for x in range(7) if x != d.weekday()], 2)
        return ("%s is no good for me, %s morning?" % (wdname(r, a), wdname(r, b)), G(nxt(d, b)),
                "counter-offer: operative = %s (next occurrence), no clock time" % WDF[b][0])
    T.append(t14)

    def t15(r, s):
        d = s.date(); wd = r.choice([x for x in range(5) if x != d.weekday()])
        return ("lunch %s? 12.30 at the usual" % wdname(r, wd), G(nxt(d, wd), time="12:30"), "lunch 12.30")
    T.append(t15)

    def t16(r, s):
        d = s.date(); wd = r.randrange(7)
        sp, hm = r.choice(EVE)
        return ("does %s next week work for everyone? thinking %s at the pub" % (WDF[wd][0], sp),
                G(next_week_wd(d, wd), time=hm), "'<wd> next week' = that weekday of the following mon-sun week")
    T.append(t16)

    def t17(r, s):
        d = s.date()
        if d.weekday() > 4:
            return None
        sat = nxt(d, 5) + TD(days=7)
        return ("ok so its the weekend after next for the festival, got the tents sorted",
                G(sat, sat + TD(days=1)), "weekend after next = upcoming weekend + 7")
    T.append(t17)

    def t18(r, s):
        if not (21 <= s.hour <= 23):
            return None
        d = s.date()
        return ("meet u outside at 1, the queue'll be mad", G(d + TD(days=1), time="01:00"),
                "sent late evening, small-hours time = next calendar day")
    T.append(t18)

    def t19(r, s):
        d = s.date()
        if d.weekday() >= 5:
            return None
        wd = r.choice([x for x in range(d.weekday() + 1, 7)])
        return ("we still on for this %s?" % wdname(r, wd), G(nxt(d, wd)),
                "this <wd> = upcoming one in the current week")
    T.append(t19)

    def t20(r, s):
        d = s.date(); wd = r.choice([x for x in range(7) if x != d.weekday()])
        sp, hm = r.choice(EVE[:6])
        return ("booked the thai place for %s, table at %s, dont be late lol" % (wdname(r, wd), sp),
                G(nxt(d, wd), time=hm), "dinner booking, pm")
    T.append(t20)

    def t21(r, s):
        d = s.date()
        if d.weekday() == 5:
            return None
        return ("bbq at ours sat from 3, bring whoever u want", G(nxt(d, 5), time="15:00"), "invitation, sat 15:00")
    T.append(t21)

    def t22(r, s):
        d = s.date()
        return ("r u around tmrw eve? need a hand w the sofa", G(d + TD(days=1)), "tmrw evening, no clock time")
    T.append(t22)

    def t23(r, s):
        if s.hour >= 17:
            return None
        d = s.date()
        return ("tonight 8pm? pub quiz, we need a 4th", G(d, time="20:00"), "tonight = send date")
    T.append(t23)

    def t24(r, s):
        d = s.date()
        if d.weekday() in (4, 5):
            return None
        return ("anyone want to come to the market fri? leaving about 9", G(nxt(d, 4), time="09:00"),
                "market trip, morning")
    T.append(t24)
    return T


def resched_templates():
    T = []
    ACT = ["drinks", "the gym sesh", "book club", "pilates", "our catch up", "the haircut"]

    def t1(r, s):
        d = s.date(); wd = r.choice([x for x in range(7) if x != d.weekday()])
        return ("%s moved to %s, same time" % (r.choice(ACT), wdname(r, wd)), G(nxt(d, wd)),
                "new day = next occurrence; original time not given so no clock time")
    T.append(t1)

    def t2(r, s):
        d = s.date(); m = monday(d) + TD(days=7)
        return ("sorry gotta push %s to next week, work is mental" % r.choice(ACT), G(m, m + TD(days=6)),
                "next week = following mon-sun range")
    T.append(t2)

    def t3(r, s):
        d = s.date()
        a, b = r.sample([x for x in range(7) if x != d.weekday()], 2)
        return ("%s's off, %s instead?" % (WDF[a][0], WDF[b][0]), G(nxt(d, b)), "X's off, Y instead -> Y")
    T.append(t3)

    def t4(r, s):
        d = s.date()
        a, b = r.sample([x for x in range(7) if x != d.weekday()], 2)
        sp, hm = r.choice(EVE)
        return ("%s doesnt work any more, how about %s at %s?" % (wdname(r, a), wdname(r, b), sp),
                G(nxt(d, b), time=hm), "new proposal = Y with its time")
    T.append(t4)

    def t5(r, s):
        d = s.date()
        a, b = r.sample([x for x in range(7) if x != d.weekday()], 2)
        return ("can we do %s instead of %s? somethings come up" % (wdname(r, b), wdname(r, a)),
                G(nxt(d, b)), "'can we do Y instead of X' -> Y")
    T.append(t5)

    def t6(r, s):
        d = s.date(); dom = r.choice([2, 6, 11, 15, 19, 23, 27])
        if dom == d.day:
            return None
        return ("dentist bumped me to the %s, 9.15 😩" % ordinal(dom), G(next_dom(d, dom), time="09:15"),
                "bumped to the Nth = next such date")
    T.append(t6)

    def t7(r, s):
        d = s.date(); m = r.choice([x for x in range(1, 13) if x != d.month])
        return ("they've postponed the reunion till %s" % MON_SHORT[m - 1], G(*next_month(d, m)),
                "postponed till <month> = whole month, next occurrence")
    T.append(t7)

    def t8(r, s):
        d = s.date()
        return ("ugh meeting's been brought forward to tmrw 10am", G(d + TD(days=1), time="10:00"),
                "brought forward to tmrw 10am")
    T.append(t8)

    def t9(r, s):
        d = s.date(); wd = r.choice([x for x in range(7) if x != d.weekday()])
        return ("shifted the trampolining to %s week, kids are ill" % WDF[wd][0], G(nxt(d, wd) + TD(days=7)),
                "<weekday> week = coming + 7")
    T.append(t9)

    def t10(r, s):
        d = s.date()
        if d.weekday() == 5:
            return None
        return ("party's been pushed back to sat after next, venue double booked", G(nxt(d, 5) + TD(days=7)),
                "saturday after next = coming sat + 7")
    T.append(t10)

    def t11(r, s):
        d = s.date(); tm = (d + TD(days=1)).weekday()
        wd = r.choice([x for x in range(7) if x not in (d.weekday(), tm)])
        return ("was meant to be tmrw but now its %s apparently" % wdname(r, wd), G(nxt(d, wd)),
                "was X but now Y -> Y (next occurrence)")
    T.append(t11)

    def t12(r, s):
        d = s.date()
        a, b = r.sample([x for x in range(7) if x != d.weekday()], 2)
        return ("flight changed!! now leaving %s 6am not %s" % (wdname(r, a), wdname(r, b)),
                G(nxt(d, a), time="06:00"), "new departure day first, 06:00")
    T.append(t12)

    def t13(r, s):
        d = s.date()
        if d.weekday() > 4:
            return None
        return ("rain all sat so bbq's moved to sun", G(nxt(d, 6)), "moved to sun (sent mon-fri, same weekend)")
    T.append(t13)

    def t14(r, s):
        d = s.date(); wd = r.choice([x for x in range(7) if x != d.weekday()])
        dom = r.choice([4, 8, 12, 16, 20, 24])
        if dom == d.day:
            return None
        return ("cant make %s anymore so rebooked for the %s" % (wdname(r, wd), ordinal(dom)),
                G(next_dom(d, dom)), "rebooked for the Nth -> next such date")
    T.append(t14)

    def t15(r, s):
        d = s.date()
        a = r.choice([x for x in range(7) if x != d.weekday()])
        sp, hm = r.choice(MORN)
        return ("they've postponed my scan to %s next week, %s" % (WDF[a][0], sp),
                G(next_week_wd(d, a), time=hm), "'<wd> next week' = following mon-sun week")
    T.append(t15)

    def t16(r, s):
        d = s.date()
        return ("tonight's cancelled, doing it tmrw instead same place", G(d + TD(days=1)),
                "tonight off, tmrw instead -> +1")
    T.append(t16)

    def t17(r, s):
        d = s.date()
        if d.weekday() > 3:
            return None
        sat = nxt(d, 5) + TD(days=7)
        return ("this wknd's a no go for me now, the weekend after?", G(sat, sat + TD(days=1)),
                "'the weekend after' (after this weekend) = upcoming weekend + 7")
    T.append(t17)

    def t18(r, s):
        d = s.date()
        if d.month in (8, 9):
            return None
        return ("we've had to postpone the move till sept :(", G(*next_month(d, 9)),
                "sept = whole september, next occurrence")
    T.append(t18)
    return T


def report_templates():
    T = []
    PLACES = ["the new bar on king st", "ikea", "the zoo", "nandos", "the retail park", "parkrun"]

    def t1(r, s):
        d = s.date(); wd = r.choice([x for x in range(7) if x != d.weekday()])
        return ("went to %s %s, was rammmed" % (r.choice(PLACES), wdname(r, wd)), G(prv(d, wd)),
                "bare weekday in past tense = most recent before send date")
    T.append(t1)

    def t2(r, s):
        d = s.date(); wd = r.choice([x for x in range(7) if x != d.weekday()])
        return ("last %s was mental, still recovering" % wdname(r, wd), G(prv(d, wd)),
                "last <wd> = most recent before send date")
    T.append(t2)

    def t3(r, s):
        d = s.date()
        return ("yday we finally did the tip run lol", G(d - TD(days=1)), "yday = -1")
    T.append(t3)

    def t4(r, s):
        d = s.date(); n = r.choice([3, 4, 5])
        return ("my phone died like %d days ago, only just got a new one so sorry for ghosting" % n,
                G(d - TD(days=n)), "N days ago = single day")
    T.append(t4)

    def t5(r, s):
        d = s.date()
        if d.weekday() == 2:
            return None
        return ("had the interveiw weds, went ok i think??", G(prv(d, 2)), "past bare weds")
    T.append(t5)

    def t6(r, s):
        d = s.date()
        if d.weekday() > 4:
            return None
        sat = prv(d, 5)
        return ("we were up the lakes last wknd, so gorgeous", G(sat, sat + TD(days=1)),
                "last weekend sent mon-fri = previous sat-sun")
    T.append(t6)

    def t7(r, s):
        d = s.date()
        return ("started the new job 2 weeks ago and already knackered", G(d - TD(days=14)), "2 weeks ago = -14")
    T.append(t7)

    def t8(r, s):
        d = s.date(); dom = r.choice([2, 5, 10, 13, 18, 22])
        if dom == d.day:
            return None
        return ("did my driving test on the %s, forgot to say, PASSED" % ordinal(dom), G(prev_dom(d, dom)),
                "past 'the Nth' = most recent such date")
    T.append(t8)

    def t9(r, s):
        d = s.date(); m = monday(d) - TD(days=7)
        return ("last week was a total write off, had flu", G(m, m + TD(days=6)), "last week = previous mon-sun")
    T.append(t9)

    def t10(r, s):
        d = s.date(); m = r.choice([x for x in range(5, 10) if x != d.month])
        return ("we went to crete in %s and it was roasting" % MONTHS[m - 1], G(*prev_month(d, m)),
                "past month = most recent such month (whole)")
    T.append(t10)

    def t11(r, s):
        d = s.date(); wd = r.choice([x for x in range(7) if x != d.weekday()])
        return ("the gig on %s was unreal, still buzzing" % wdname(r, wd), G(prv(d, wd)), "past bare weekday")
    T.append(t11)

    def t12(r, s):
        d = s.date()
        if d.weekday() == 1:
            return None
        return ("was at the vets tues with the dog, shes fine dw", G(prv(d, 1)), "past tues")
    T.append(t12)

    def t13(r, s):
        d = s.date()
        return ("day before yday i bumped into ur sister at tesco!", G(d - TD(days=2)), "day before yday = -2")
    T.append(t13)

    def t14(r, s):
        d = s.date()
        return ("a week ago today we got the keys!! mad", G(d - TD(days=7)), "a week ago today = -7")
    T.append(t14)

    def t15(r, s):
        if s.hour < 8:
            return None
        d = s.date()
        return ("got back from berlin last night, absolutely shattered", G(d - TD(days=1)),
                "last night = the evening of send date - 1")
    T.append(t15)

    def t16(r, s):
        if s.hour < 12:
            return None
        d = s.date()
        return ("this morning i locked myself out again 🙃", G(d), "this morning = send date (past)")
    T.append(t16)

    def t17(r, s):
        d = s.date()
        if d.weekday() == 6:
            return None
        return ("missed ur call sun, was at my nans", G(prv(d, 6)), "past sun")
    T.append(t17)

    def t18(r, s):
        d = s.date(); wd = r.choice([x for x in range(7) if x != d.weekday()])
        return ("finally saw the new bond film %s night, meh" % wdname(r, wd), G(prv(d, wd)), "past <wd> night")
    T.append(t18)
    return T


def mixed_templates():
    T = []

    def t1(r, s):
        d = s.date()
        if d.weekday() == 0:
            return None
        wd = r.choice([x for x in range(d.weekday())])
        return ("had a blast last night, same again next %s?" % wdname(r, wd), G(next_week_wd(d, wd)),
                "past clause has no date anchor beyond 'last night'; operative = next <wd> "
                "(next-week and next-occurrence readings coincide)")
    T.append(t1)

    def t2(r, s):
        if s.hour < 9:
            return None
        d = s.date()
        return ("turns out the party was last night not tonight 🤦 i'm an idiot", G(d - TD(days=1)),
                "operative = last night (yesterday); 'tonight' is the mistaken belief")
    T.append(t2)

    def t3(r, s):
        d = s.date(); wd = r.choice([x for x in range(7) if x != d.weekday()])
        return ("loved it when we went, we're going back %s if u wanna come" % wdname(r, wd), G(nxt(d, wd)),
                "future clause weekday = next occurrence")
    T.append(t3)

    def t4(r, s):
        d = s.date()
        return ("didnt manage to fix the bike today, will have another go tmrw", G(d + TD(days=1)),
                "old attempt today, operative new attempt tmrw")
    T.append(t4)

    def t5(r, s):
        d = s.date()
        if d.weekday() < 2:
            return None
        a, b = r.sample(range(d.weekday()), 2)
        return ("was gonna go %s but went %s in the end" % (WDF[a][0], WDF[b][0]), G(prv(d, b)),
                "both past (earlier this week); operative = where they actually went")
    T.append(t5)

    def t6(r, s):
        d = s.date(); dom = r.choice([7, 12, 15, 20, 25])
        if dom == d.day:
            return None
        return ("ive booked us in for the %s, was a nightmare getting a table" % ordinal(dom),
                G(next_dom(d, dom)), "booking done in past, event in future: next such date")
    T.append(t6)

    def t7(r, s):
        d = s.date()
        if d.weekday() == 3:
            return None
        return ("been to the new ramen place yet? we're going thurs", G(nxt(d, 3)), "future thurs")
    T.append(t7)

    def t8(r, s):
        d = s.date(); wd = r.choice([x for x in range(7) if x != d.weekday()])
        return ("was so good last time, shall we book again for %s week" % WDF[wd][0],
                G(nxt(d, wd) + TD(days=7)), "<wd> week = coming + 7")
    T.append(t8)

    def t9(r, s):
        d = s.date()
        return ("sold the car!! bloke's collecting it tmrw morning", G(d + TD(days=1)),
                "sale past, collection tmrw")
    T.append(t9)

    def t10(r, s):
        d = s.date()
        return ("spent all morning at the hospital, results back in 2 wks", G(d + TD(days=14)),
                "in 2 wks = +14 (results day)")
    T.append(t10)

    def t11(r, s):
        d = s.date(); wd = r.choice([x for x in range(7) if x != d.weekday()])
        if wd == (d + TD(days=1)).weekday():
            return None
        return ("forgot to reply yday soz!! yeah %s works" % wdname(r, wd), G(nxt(d, wd)),
                "past clause has no event; the accepted plan day = next occurrence")
    T.append(t11)

    def t12(r, s):
        d = s.date()
        if d.weekday() > 4:
            return None
        sat = nxt(d, 5)
        return ("i'd forgotten all about it but we've got the wedding this wknd!!", G(sat, sat + TD(days=1)),
                "this weekend sent mon-fri")
    T.append(t12)

    def t13(r, s):
        d = s.date()
        if d.weekday() == 4:
            return None
        return ("was meant to go yesterday but i bottled it, going fri now defo", G(nxt(d, 4)),
                "old plan yesterday, operative fri (next)")
    T.append(t13)
    return T


def numeric_templates():
    T = []

    def t1(r, s):
        d = s.date(); m = ahead_month(r, d)
        a = r.choice([3, 9, 14]); b = a + 7
        st = next_md(d, m, a)
        return ("booked flights, out %d/%d back %d/%d" % (a, m, b, m), G(st, st.replace(day=b)),
                "trip range out..back, day-first, next occurrence")
    T.append(t1)

    def t2(r, s):
        d = s.date(); m = ahead_month(r, d); day = r.choice([5, 7, 10])
        return ("party's %d.%d, save the date!!" % (day, m), G(next_md(d, m, day)),
                "dd.mm day-first, next occurrence")
    T.append(t2)

    def t3(r, s):
        d = s.date()
        c = d + TD(days=r.randrange(10, 120))
        return ("hospital appt %d/%d/%s at 2.40 fml" % (c.day, c.month, str(c.year)[2:]),
                G(c, time="14:40"), "d/m/yy with year; 2.40 = 14:40 (daytime appointment)")
    T.append(t3)

    def t4(r, s):
        d = s.date(); c = d - TD(days=r.randrange(20, 200))
        return ("we moved in on %d/%d so its been a while" % (c.day, c.month), G(c),
                "past tense: most recent such date before send")
    T.append(t4)

    def t5(r, s):
        d = s.date(); m = ahead_month(r, d); a = r.choice([4, 11, 18])
        st = next_md(d, m, a)
        return ("im off work %d-%d/%d if u wanna do something" % (a, a + 4, m), G(st, st + TD(days=4)),
                "numeric range a-b/m")
    T.append(t5)

    def t6(r, s):
        d = s.date(); c = d + TD(days=r.randrange(5, 60))
        return ("deadline's %02d/%02d eek" % (c.day, c.month), G(c), "dd/mm next occurrence")
    T.append(t6)

    def t7(r, s):
        d = s.date(); c = d - TD(days=r.randrange(3, 40))
        return ("i paid it on %d.%d, check ur bank" % (c.day, c.month), G(c), "past dd.mm")
    T.append(t7)

    def t8(r, s):
        d = s.date(); c = d + TD(days=r.randrange(8, 90))
        return ("can u do %d/%d or is that bad for u" % (c.day, c.month), G(c), "d/m plan, next occurrence")
    T.append(t8)

    def t9(r, s):
        d = s.date(); c = d + TD(days=r.randrange(30, 300))
        return ("got gig tix for %d/%d/%s!!!" % (c.day, c.month, str(c.year)[2:]), G(c), "d/m/yy")
    T.append(t9)

    def t10(r, s):
        d = s.date(); c = d + TD(days=r.randrange(3, 40))
        sp, hm = r.choice(EVE)
        return ("dinner on the %02d.%02d at %s? my treat" % (c.day, c.month, sp), G(c, time=hm),
                "dd.mm with evening time")
    T.append(t10)
    return T


def named_templates():
    T = []
    XMAS = lambda y: D(y, 12, 25)

    def t1(r, s):
        d = s.date()
        if d.month < 9 or d >= D(d.year, 12, 25):
            return None
        return ("xmas at my mums this yr? she's asking", G(named_next(d, XMAS)), "christmas, next occurrence")
    T.append(t1)

    def t2(r, s):
        d = s.date()
        if d.month < 10 or d == D(d.year, 12, 31):
            return None
        return ("nye plans?? pls say house party", G(named_next(d, lambda y: D(y, 12, 31))), "nye = 12-31")
    T.append(t2)

    def t3(r, s):
        d = s.date()
        if d.month != 12 or d.day >= 26:
            return None
        return ("boxing day walk as usual? 11 at the car park", G(D(d.year, 12, 26), time="11:00"),
                "boxing day 12-26")
    T.append(t3)

    def t4(r, s):
        d = s.date()
        if d.month not in (11, 12):
            return None
        return ("what did u lot end up doing for halloween", G(named_prev(d, lambda y: D(y, 10, 31))),
                "past halloween")
    T.append(t4)

    def t5(r, s):
        d = s.date()
        e = named_next(d, easter)
        if (e - d).days > 60:
            return None
        return ("easter sunday lunch at ours? about 1", G(e, time="13:00"), "easter sunday by computus")
    T.append(t5)

    def t6(r, s):
        d = s.date()
        e = named_next(d, lambda y: easter(y) - TD(days=2))
        if (e - d).days > 60:
            return None
        return ("u off on good friday? fancy a day trip", G(e), "good friday = easter - 2")
    T.append(t6)

    def t7(r, s):
        d = s.date()
        if d.month not in (6, 7, 8) or d >= last_monday(d.year, 8):
            return None
        e = named_next(d, lambda y: last_monday(y, 8))
        return ("bbq on the august bank hol monday, spread the word", G(e),
                "august bank holiday = last monday of august (England)")
    T.append(t7)

    def t8(r, s):
        d = s.date()
        if d.month not in (1, 2) or (d.month == 2 and d.day >= 14):
            return None
        return ("booked valentines dinner, 8pm, dont make plans", G(named_next(d, lambda y: D(y, 2, 14)), time="20:00"),
                "valentine's 02-14")
    T.append(t8)

    def t9(r, s):
        d = s.date()
        if d.month != 12:
            return None
        return ("new years day hangover walk? noon ish", G(named_next(d, lambda y: D(y, 1, 1)), time="12:00"),
                "new year's day next occurrence")
    T.append(t9)

    def t10(r, s):
        d = s.date()
        if d.month != 12 or d.day >= 23:
            return None
        return ("xmas eve eve drinks at the anchor, who's in", G(D(d.year, 12, 23)), "christmas eve eve = 12-23")
    T.append(t10)

    def t11(r, s):
        d = s.date()
        if d.month != 1:
            return None
        return ("spent boxing day on the sofa and regret nothing", G(D(d.year - 1, 12, 26)), "past boxing day")
    T.append(t11)

    def t12(r, s):
        d = s.date()
        e = named_next(d, lambda y: easter(y) + TD(days=1))
        if (e - d).days > 50:
            return None
        return ("easter monday we're doing the egg hunt at gran's", G(e), "easter monday = easter + 1")
    T.append(t12)

    def t13(r, s):
        d = s.date()
        e = named_next(d, lambda y: easter(y) - TD(days=21))
        if (e - d).days > 40:
            return None
        return ("dont forget mothering sunday!! flowers sorted?", G(e), "UK mothering sunday = easter - 21")
    T.append(t13)

    def t14(r, s):
        d = s.date()
        if not (d.month == 12 and 2 <= d.day <= 22):
            return None
        return ("xmas eve we're at the in-laws, back boxing day", G(D(d.year, 12, 24), D(d.year, 12, 26)),
                "range from xmas eve to boxing day (the stay at the in-laws)")
    T.append(t14)
    return T


# ---------------------------------------------------------------- corrections
CORR = [
    # (first text fmt, second text fmt, opener kind)
    ("dinner {a} at {t1}?", "sorry i meant {b}!! same time", "apology", "day"),
    ("table's booked for {a} at {t1}", "update: restaurant moved us to {b}", "update:", "day"),
    ("footy {a} at {t1}", "hmm actually... might be {b} not {a}, yeah its {b}", "hesitation", "day"),
    ("movie {a} at {t1}", "wait no its {b}, my bad", "wait", "day"),
    ("see u {a} at {t1} then", "actually make that {b}", "actually", "day"),
    ("pub {a} {t1}", "{b} {t2}*", "no cue", "both"),
    ("party's {a} from {t1}", "oops sorry it's from {t2} not {t1}", "apology (time only)", "time"),
    ("pick u up {a} at {t1}", "update - {b} at {t2} instead, flight times changed", "update", "both"),
    ("quiz {a} {t1}?", "ah wait hang on, {b} better for me", "wait+hesitation", "day"),
    ("drinks {a} at {t1}", "erm scratch that, {b}", "hesitation", "day"),
]
ACKS = ["👍", "ok cool", "kk", "lol np", "sweet", "sounds good, may bring jo", "noted", "ha ok x"]


# ---------------------------------------------------------------- questions
def question_templates():
    T = []

    def q(f):
        T.append(f)
        return f

    @q
    def q1(r, s):
        d = s.date(); dom = r.choice([12, 19, 8])
        if d.day == dom:
            return None
        return ("what's on the %s?" % ordinal(dom), G(next_dom(d, dom)), "what's on = coming occurrence")

    @q
    def q2(r, s):
        d = s.date()
        if d.weekday() == 2:
            return None
        return ("what did i do last weds?", G(prv(d, 2)), "last weds = most recent before")

    @q
    def q3(r, s):
        d = s.date()
        if d.weekday() == 3:
            return None
        return ("anything on thurs?", G(nxt(d, 3)), "future thurs")

    @q
    def q4(r, s):
        return ("when's the dentist?", None, "no date in question")

    @q
    def q5(r, s):
        d = s.date()
        if d.weekday() > 4:
            return None
        sat = nxt(d, 5)
        return ("what am i up to this wknd", G(sat, sat + TD(days=1)), "this weekend sent mon-fri")

    @q
    def q6(r, s):
        d = s.date()
        return ("what was i doing 2 weeks ago", G(d - TD(days=14)), "2 weeks ago = single day -14")

    @q
    def q7(r, s):
        d = s.date()
        if d.month < 10 or d >= D(d.year, 12, 25):
            return None
        return ("anything planned for xmas?", G(named_next(d, lambda y: D(y, 12, 25))), "xmas next")

    @q
    def q8(r, s):
        d = s.date(); c = d - TD(days=r.randrange(10, 80))
        return ("what happened on %d/%d?" % (c.day, c.month), G(c), "past numeric, day-first")

    @q
    def q9(r, s):
        d = s.date()
        return ("have i got anything tmrw", G(d + TD(days=1)), "tmrw")

    @q
    def q10(r, s):
        d = s.date()
        return ("what did we do yday?", G(d - TD(days=1)), "yday")

    @q
    def q11(r, s):
        d = s.date(); m = monday(d) + TD(days=7)
        return ("whats happening next week", G(m, m + TD(days=6)), "next week range")

    @q
    def q12(r, s):
        return ("when did i last see gran?", None, "asks for a date, gives none")

    @q
    def q13(r, s):
        d = s.date()
        if d.weekday() == 5:
            return None
        return ("what's on sat week?", G(nxt(d, 5) + TD(days=7)), "sat week = coming sat + 7")

    @q
    def q14(r, s):
        d = s.date()
        if d.weekday() > 4:
            return None
        sat = prv(d, 5)
        return ("what did i get up to last wknd", G(sat, sat + TD(days=1)), "last weekend")

    @q
    def q15(r, s):
        d = s.date()
        if d.month < 11 or d.day == 31 and d.month == 12:
            return None
        return ("any plans for nye", G(named_next(d, lambda y: D(y, 12, 31))), "nye")

    @q
    def q16(r, s):
        d = s.date()
        if d.month not in (1, 2) or (d.month == 2 and d.day >= 14):
            return None
        return ("remind me whats on 14.2", G(next_md(d, 2, 14)), "numeric dd.m, future")

    @q
    def q17(r, s):
        d = s.date()
        if d.day in (3, 4):
            return None
        return ("what was the thing on the 3rd?", G(prev_dom(d, 3)), "past tense 'was' -> most recent 3rd")

    @q
    def q18(r, s):
        d = s.date()
        if d.month == 3:
            return None
        return ("where was i in march", G(*prev_month(d, 3)), "past month")

    @q
    def q19(r, s):
        d = s.date()
        return ("what have i got on monday next week", G(next_week_wd(d, 0)), "monday of following week")

    @q
    def q20(r, s):
        d = s.date()
        if d.weekday() > 4:
            return None
        sat = nxt(d, 5) + TD(days=7)
        return ("what's the plan for the weekend after next?", G(sat, sat + TD(days=1)), "upcoming weekend + 7")

    @q
    def q21(r, s):
        d = s.date()
        e = named_prev(d, easter)
        if not (0 < (d - e).days < 90):
            return None
        return ("what did we do on easter sunday?", G(e), "most recent easter sunday (computus)")

    @q
    def q22(r, s):
        return ("when's mums bday again", None, "no date")

    @q
    def q23(r, s):
        d = s.date()
        return ("what did i do 3 days ago", G(d - TD(days=3)), "-3")

    @q
    def q24(r, s):
        d = s.date()
        return ("anything on day after tmrw?", G(d + TD(days=2)), "+2")

    @q
    def q25(r, s):
        d = s.date()
        if d.month == 6:
            return None
        return ("what's going on in june", G(*next_month(d, 6)), "future month")

    @q
    def q26(r, s):
        d = s.date()
        if d.weekday() == 1:
            return None
        return ("what was on last tues", G(prv(d, 1)), "last tues")

    @q
    def q27(r, s):
        return ("how many times have i been to the gym?", None, "no date")
    return T


# ---------------------------------------------------------------- build
START, END = D(2023, 1, 2), D(2026, 11, 28)
HOURS = [7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 21, 22, 22, 23, 23]


def rand_sent(r):
    d = START + TD(days=r.randrange((END - START).days))
    return dt.datetime(d.year, d.month, d.day, r.choice(HOURS), r.randrange(60))


def fill(r, tpl, tries=4000):
    for _ in range(tries):
        s = rand_sent(r)
        rs = random.Random(r.random())
        out = tpl(rs, s)
        if out is not None:
            return s, out
    raise RuntimeError("no send date fits %s" % tpl.__name__)


def build():
    r = random.Random(SEED)
    msgs, chats, questions = [], [], []
    plan = {"plan": (plan_templates(), 35), "reschedule": (resched_templates(), 30),
            "report": (report_templates(), 35), "mixed": (mixed_templates(), 25),
            "numeric": (numeric_templates(), 20), "named": (named_templates(), 20)}
    units = []  # (primary group, [messages]) or questions
    cid = 0
    for group, (tpls, n) in plan.items():
        for i in range(n):
            tpl = tpls[i % len(tpls)]
            s, (text, gold, note) = fill(r, tpl)
            cid += 1
            units.append((group, [dict(chat="c%03d" % cid, group=group, sent=s, speaker=r.choice("AB"),
                                       text=text, gold=gold, note=note)]))
    # corrections
    for k, (f1, f2, cue, kind) in enumerate(CORR):
        while True:
            s = rand_sent(r)
            d = s.date()
            a, b = r.sample([x for x in range(7) if x != d.weekday()], 2)
            (sp1, h1), (sp2, h2) = r.sample(EVE, 2)
            if h1 == h2:
                continue
            break
        an, bn = wdname(r, a), wdname(r, b)
        ga = nxt(d, a)
        if kind == "day":
            gb, t2 = nxt(d, b), h1
            n2 = "correction: new day %s, time %s carries over from the first message" % (WDF[b][0], h1)
        elif kind == "time":
            gb, t2 = ga, h2
            n2 = "correction of the time only: same day, new time"
        else:
            gb, t2 = nxt(d, b), h2
            n2 = "correction of day and time"
        cid += 1
        ch = "c%03d" % cid
        spk, oth = r.sample("AB", 2)
        seq = [dict(group="correction", speaker=spk, text=f1.format(a=an, t1=sp1), gold=G(ga, time=h1),
                    note="original time (to be corrected in a later message)")]
        for _ in range(1 + (k % 3 == 0)):
            seq.append(dict(group="distractor", speaker=oth, text=r.choice(ACKS), gold=None,
                            note="acknowledgement, no date"))
        seq.append(dict(group="correction", speaker=spk, text=f2.format(a=an, b=bn, t1=sp1, t2=sp2),
                        gold=G(gb, time=t2), note=n2 + "; opener: " + cue))
        t = s
        for m in seq:
            m["chat"] = ch
            m["sent"] = t
            t = t + TD(minutes=r.randrange(1, 9))
        seq[-1]["corrects"] = None  # filled after ids
        units.append(("correction", seq))
    # questions
    for tpl in question_templates():
        s, (text, gold, note) = fill(r, tpl)
        units.append(("question", [dict(group="question", asked=s, text=text, gold=gold, note=note)]))

    # split
    strata = {}
    for u in units:
        strata.setdefault(u[0], []).append(u)
    rs = random.Random(SEED + 1)
    dev, test = [], []
    for g in sorted(strata):
        us = strata[g][:]
        rs.shuffle(us)
        k = round(len(us) / 3)
        dev += us[:k]
        test += us[k:]

    def key(u):
        m = u[1][0]
        return m.get("sent") or m.get("asked")

    # ids over all units in time order
    allu = sorted(units, key=key)
    mi = qi = 0
    for g, ms in allu:
        first_id = None
        for m in ms:
            if g == "question":
                qi += 1
                m["id"] = "q%03d" % qi
            else:
                mi += 1
                m["id"] = "m%03d" % mi
                if first_id is None:
                    first_id = m["id"]
                if "corrects" in m:
                    m["corrects"] = first_id

    def dump(us, name):
        us = sorted(us, key=key)
        messages, qs = [], []
        counts = {}
        for g, ms in us:
            for m in ms:
                counts[m["group"]] = counts.get(m["group"], 0) + 1
                if g == "question":
                    qs.append({"id": m["id"], "group": "question",
                               "asked": m["asked"].strftime("%Y-%m-%dT%H:%M"),
                               "text": m["text"], "gold": m["gold"], "note": m["note"]})
                else:
                    o = {"id": m["id"], "chat": m["chat"], "group": m["group"],
                         "sent": m["sent"].strftime("%Y-%m-%dT%H:%M"), "speaker": m["speaker"],
                         "text": m["text"], "gold": m["gold"], "note": m["note"]}
                    if "corrects" in m:
                        o["corrects"] = m["corrects"]
                    messages.append(o)
        counts = dict(sorted(counts.items()))
        counts["messages"] = len(messages)
        counts["questions"] = len(qs)
        data = {"conventions": CONVENTIONS, "counts": counts, "messages": messages, "questions": qs}
        with open(os.path.join(HERE, name), "w") as fh:
            json.dump(data, fh, indent=1, ensure_ascii=False)
            fh.write("\n")
        return data

    return dump(dev, "dev.json"), dump(test, "test.json"), dump(units, "all.json")


CONVENTIONS = {
    "gold_format": "gold is {start, end} ISO dates inclusive (single day: start == end), plus optional time HH:MM "
                   "(24h, naive local) when the message gives a clock time or it clearly carries over in a "
                   "correction; null when there is no date.",
    "what_gold_means": "the date (range) when the thing referred to happens/happened; with an old and a new "
                       "time (reschedules, 'was X but now Y', 'can't do X, Y works', corrections) the new/"
                       "operative one.",
    "bare_weekday_future": "next occurrence strictly after the send date (same weekday as send date avoided).",
    "bare_weekday_past": "most recent occurrence strictly before the send date.",
    "last_weekday": "most recent strictly before the send date.",
    "this_weekday": "upcoming one in the current mon-sun week, strictly after today.",
    "next_weekday": "the weekday of the following mon-sun week; only used where that equals the next occurrence.",
    "weekday_next_week": "'<wd> next week' = that weekday of the following mon-sun week.",
    "thursday_week": "'<wd> week' = coming <wd> + 7; 'saturday after next' = coming saturday + 7.",
    "this_weekend": "sent mon-fri: upcoming sat-sun.",
    "weekend_after_next": "upcoming weekend + 7.",
    "last_weekend": "sent mon-fri: previous sat-sun.",
    "weeks": "next/last week = following/previous mon-sun range.",
    "months": "month alone = whole month; next occurrence (strictly after the current month) for future, "
              "most recent (strictly before) for past.",
    "relative_days": "tmrw/2moro +1, day after tmrw +2, yday -1, day before yday -2, N days/weeks ago and "
                     "'in 2 weeks' single days; 'last night' = send date - 1; 'this morning' = send date.",
    "day_of_month": "'the Nth' = next such date strictly after send (future) / most recent strictly before (past).",
    "numeric": "day-first (dd/mm, dd.mm, d/m/yy); yy = 20yy; without year next occurrence for plans, most "
               "recent for past; 'a-b/m' and 'out x back y' ranges give start/end.",
    "named_days": "as in benchmarks/data/times/README.md (easter by Gregorian computus, good friday -2, easter "
                  "monday +1, mothering sunday -21, august bank holiday = last monday of august); future: next "
                  "occurrence after the send date, past: most recent before.",
    "late_night": "small-hours time (00:00-05:59) sent 21:00-23:59 = next calendar day.",
    "clock_times": "bare hours read the natural way for the activity (dinner at 8 -> 20:00, 'half 7' -> 19:30).",
    "questions": "same rules relative to 'asked'; a question with no date has gold null.",
    "distractors": "acknowledgements in correction chats, no date, gold null.",
}

if __name__ == "__main__":
    dev, test, alld = build()
    for n, d in (("dev", dev), ("test", test), ("all", alld)):
        print(n, json.dumps(d["counts"]))
    days = {m["sent"][:10] for m in alld["messages"]}
    print("distinct send days", len(days), min(days), max(days))
