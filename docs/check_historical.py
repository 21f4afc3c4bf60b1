#!/usr/bin/env python3
"""Check the historical orders of battle (Land of the Free, "Historical Refights").

Usage:  python3 docs/check_historical.py [DATA_DIR]
        (DATA_DIR defaults to src/rules/systems/lotf/data/historical next to this docs/ folder)

No dependencies beyond the standard library. Checks that every file parses, uses only the
allowed keys and values of the historical-battle schema and of muster.lotf.roster/1, that each
side's elements add up to its book_element_count, that every force and group has a commander,
and that all 20 refights are present with 878 elements in all. Prints per-battle counts and the
total; exits 1 if any check fails.
"""
import datetime
import json
import os
import sys

EXPECTED_IDS = [
    "monongahela", "ticonderoga", "plains_of_abraham", "sainte_foy",
    "second_trenton", "princeton", "brandywine", "germantown", "kings_mountain", "cowpens",
    "guilford_court_house", "wabash", "fallen_timbers", "thames", "cryslers_farm", "chippawa",
    "niagara_falls", "bladensburg", "plattsburgh", "new_orleans",
]
EXPECTED_TOTAL = 878

WARS = {"french_indian_war", "american_revolution", "northwest_indian_war", "war_of_1812"}
NATIONS = {"british", "french", "american", "hessian", "native_confederation"}
SCENARIOS = {"take_the_field", "reconnoiter", "hold_the_ground", "flank_attack", "surrounded",
             "ambush", "frontal_assault", "meeting_engagement"}
TYPES = {"infantry", "cavalry", "artillery"}
SIZES = {"tiny", "small", "medium", "large"}
WEAPONS_BY_TYPE = {
    "infantry": {"smoothbore", "rifled"},
    "cavalry": {"mixed"},
    "artillery": {"light_gun", "heavy_gun", "siege_mortar", "rockets"},
}
BATTLE_KEYS = {"id", "name", "date", "war", "scenario", "attacker", "defender", "sides", "notes"}
SIDE_KEYS = {"role", "nation", "book_element_count", "forces"}
ROSTER_KEYS = {"format", "name", "war", "nation", "points_limit", "mode", "force_commander", "groups"}
GROUP_KEYS = {"commander", "elements"}
COMMANDER_KEYS = {"name"}
ELEMENT_REQUIRED = {"name", "type", "size", "weapon", "upgrades"}
ELEMENT_OPTIONAL = {"note", "size_assumed", "gun_class_assumed"}


class Checker:
    def __init__(self):
        self.errors = []

    def err(self, where, msg):
        self.errors.append("%s: %s" % (where, msg))

    def keys(self, where, obj, required, optional=frozenset()):
        if not isinstance(obj, dict):
            self.err(where, "expected an object")
            return False
        missing = required - obj.keys()
        extra = obj.keys() - required - optional
        if missing:
            self.err(where, "missing keys %s" % sorted(missing))
        if extra:
            self.err(where, "unknown keys %s" % sorted(extra))
        return not missing

    def text(self, where, value):
        if not isinstance(value, str) or not value.strip():
            self.err(where, "expected a non-empty string, got %r" % (value,))
            return False
        return True

    def commander(self, where, obj):
        if self.keys(where, obj, COMMANDER_KEYS):
            self.text(where + ".name", obj["name"])

    def element(self, where, el, war):
        if not self.keys(where, el, ELEMENT_REQUIRED, ELEMENT_OPTIONAL):
            return
        self.text(where + ".name", el["name"])
        t = el["type"]
        if t not in TYPES:
            self.err(where, "bad type %r" % (t,))
            return
        if el["size"] not in SIZES:
            self.err(where, "bad size %r" % (el["size"],))
        elif t == "artillery" and el["size"] == "tiny":
            self.err(where, "artillery cannot be tiny (R-2)")
        if el["weapon"] not in WEAPONS_BY_TYPE[t]:
            self.err(where, "weapon %r not allowed for %s" % (el["weapon"], t))
        if el["weapon"] == "rockets" and war != "war_of_1812":
            self.err(where, "rockets outside the War of 1812 (R-3)")
        if el["upgrades"] != []:
            self.err(where, "historical elements carry no upgrades (R-25)")
        if "note" in el:
            self.text(where + ".note", el["note"])
        if "size_assumed" in el and el["size_assumed"] is not True:
            self.err(where, "size_assumed may only be true")
        if "gun_class_assumed" in el:
            if el["gun_class_assumed"] is not True:
                self.err(where, "gun_class_assumed may only be true")
            if t != "artillery":
                self.err(where, "gun_class_assumed on a non-artillery element")
            elif el["weapon"] != "light_gun":
                self.err(where, "an assumed gun class must be light_gun (R-25)")
        if el.get("size_assumed") and el["size"] != "medium":
            self.err(where, "an assumed size must be medium (R-26)")

    def roster(self, where, r, war, nation):
        if not self.keys(where, r, ROSTER_KEYS):
            return 0
        if r["format"] != "muster.lotf.roster/1":
            self.err(where, "bad format %r" % (r["format"],))
        self.text(where + ".name", r["name"])
        if r["war"] != war:
            self.err(where, "roster war %r differs from battle war %r" % (r["war"], war))
        if r["nation"] != nation:
            self.err(where, "roster nation %r differs from side nation %r" % (r["nation"], nation))
        pl = r["points_limit"]
        if not isinstance(pl, int) or isinstance(pl, bool) or pl < 0:
            self.err(where, "points_limit must be a non-negative integer")
        if r["mode"] != "historical":
            self.err(where, "mode must be historical")
        self.commander(where + ".force_commander", r["force_commander"])
        groups = r["groups"]
        if not isinstance(groups, list) or not groups:
            self.err(where, "groups must be a non-empty list")
            return 0
        n = 0
        for gi, g in enumerate(groups):
            gw = "%s.groups[%d]" % (where, gi)
            if not self.keys(gw, g, GROUP_KEYS):
                continue
            self.commander(gw + ".commander", g["commander"])
            els = g["elements"]
            if not isinstance(els, list) or not els:
                self.err(gw, "elements must be a non-empty list")
                continue
            for ei, el in enumerate(els):
                self.element("%s.elements[%d]" % (gw, ei), el, war)
            n += len(els)
        return n

    def battle(self, path, bid):
        where = os.path.basename(path)
        try:
            with open(path, encoding="utf-8") as fh:
                d = json.load(fh)
        except (OSError, ValueError) as e:
            self.err(where, "does not parse: %s" % e)
            return None
        if not self.keys(where, d, BATTLE_KEYS):
            return None
        if d["id"] != bid:
            self.err(where, "id %r does not match the file name" % (d["id"],))
        self.text(where + ".name", d["name"])
        try:
            datetime.date.fromisoformat(d["date"])
        except (TypeError, ValueError):
            self.err(where, "date %r is not an ISO date" % (d["date"],))
        war = d["war"]
        if war not in WARS:
            self.err(where, "bad war %r" % (war,))
        if d["scenario"] not in SCENARIOS:
            self.err(where, "unknown scenario %r" % (d["scenario"],))
        for k in ("attacker", "defender"):
            if d[k] not in NATIONS:
                self.err(where, "bad %s nation %r" % (k, d[k]))
        if not isinstance(d["notes"], list) or not all(isinstance(x, str) and x.strip() for x in d["notes"]):
            self.err(where, "notes must be a list of non-empty strings")
        sides = d["sides"]
        if not isinstance(sides, list) or len(sides) != 2:
            self.err(where, "expected exactly two sides")
            return None
        counts = {}
        for si, s in enumerate(sides):
            sw = "%s.sides[%d]" % (where, si)
            if not self.keys(sw, s, SIDE_KEYS):
                continue
            role = s["role"]
            if role not in ("attacker", "defender"):
                self.err(sw, "bad role %r" % (role,))
                continue
            if role in counts:
                self.err(sw, "two sides with role %s" % role)
            if s["nation"] not in NATIONS:
                self.err(sw, "bad nation %r" % (s["nation"],))
            if d.get(role) != s["nation"]:
                self.err(sw, "nation %r differs from the battle's %s %r" % (s["nation"], role, d.get(role)))
            forces = s["forces"]
            if not isinstance(forces, list) or not forces:
                self.err(sw, "forces must be a non-empty list")
                continue
            n = sum(self.roster("%s.forces[%d]" % (sw, fi), r, war, s["nation"])
                    for fi, r in enumerate(forces))
            bc = s["book_element_count"]
            if not isinstance(bc, int) or isinstance(bc, bool):
                self.err(sw, "book_element_count must be an integer")
            elif n != bc:
                self.err(sw, "%d elements entered but book_element_count is %d" % (n, bc))
            counts[role] = (s["nation"], n, len(forces))
        return d, counts


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    data_dir = argv[1] if len(argv) > 1 else os.path.join(here, "..", "src", "rules", "lotf", "data", "historical")
    c = Checker()
    present = sorted(f[:-5] for f in os.listdir(data_dir) if f.endswith(".json"))
    for extra in sorted(set(present) - set(EXPECTED_IDS)):
        c.err(extra + ".json", "unexpected file")
    total = 0
    print("%-22s %-28s %-28s %s" % ("battle", "attacker (elements/forces)", "defender (elements/forces)", "total"))
    for bid in EXPECTED_IDS:
        path = os.path.join(data_dir, bid + ".json")
        if not os.path.exists(path):
            c.err(bid + ".json", "missing")
            continue
        res = c.battle(path, bid)
        if not res:
            continue
        d, counts = res
        cols = []
        n = 0
        for role in ("attacker", "defender"):
            if role in counts:
                nation, k, nf = counts[role]
                cols.append("%s %d/%d" % (nation, k, nf))
                n += k
            else:
                cols.append("-")
        total += n
        print("%-22s %-28s %-28s %d" % (bid, cols[0], cols[1], n))
    print("TOTAL %d elements in %d battles" % (total, len(present)))
    if total != EXPECTED_TOTAL:
        c.err("total", "%d elements, expected %d" % (total, EXPECTED_TOTAL))
    if c.errors:
        print("\n%d problem(s):" % len(c.errors))
        for e in c.errors:
            print("  " + e)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
