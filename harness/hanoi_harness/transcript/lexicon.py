"""The words the move rules know, in the languages programs print in: connectives, fillers, keywords.

Each set holds lower-case words.  Chinese and Japanese characters are
single tokens (:mod:`hanoi_harness.transcript.rules` splits them), so their
entries are single characters.  A word of several sets keeps the meaning of
each: ``de`` is a source marker (Spanish, Portuguese, French) and a filler
between a marker and its peg (``de la torre de origen``).
"""

from __future__ import annotations

FROM = frozenset(
    [
        "from",
        "de",
        "desde",
        "von",
        "vom",
        "da",
        "dal",
        "dalla",
        "do",
        "dos",
        "van",
        "uit",
        "ze",
        "из",
        "от",
        "从",
        "由",
        "自",
        "dari",
    ]
)
"""Words before a move's source: English, Spanish, German, Portuguese, Italian, French, Dutch, Russian, Chinese."""
TO = frozenset(
    [
        "to",
        "onto",
        "into",
        "a",
        "al",
        "hacia",
        "hasta",
        "para",
        "pra",
        "nach",
        "zu",
        "zum",
        "zur",
        "auf",
        "à",
        "vers",
        "sur",
        "naar",
        "op",
        "в",
        "во",
        "на",
        "到",
        "至",
        "ke",
    ]
)
"""Words before a move's destination."""
THE = frozenset(["the", "la", "el", "le", "les", "los", "las", "lo", "der", "die", "das", "dem", "den", "os", "il"])
"""Articles between a connective and its peg."""
OF = frozenset(["of"])
PEGWORD = frozenset(
    [
        "peg",
        "pegs",
        "pole",
        "rod",
        "tower",
        "pillar",
        "post",
        "needle",
        "column",
        "stack",
        "spindle",
        "stick",
        "pin",
        "torre",
        "torres",
        "varilla",
        "palo",
        "poste",
        "columna",
        "pila",
        "turm",
        "stab",
        "stange",
        "säule",
        "haste",
        "pino",
        "pilha",
        "tour",
        "tige",
        "piquet",
        "asta",
        "piolo",
        "toren",
        "stok",
        "柱",
        "杆",
        "塔",
        "座",
    ]
)
"""Words naming a peg (``peg A``, ``la torre de origen``); never peg names themselves."""
DISK = frozenset(["disk", "disc", "ring", "disco", "scheibe", "disque", "disko", "anel", "anillo", "盘", "碟"])
"""The word before a disk's number (``disk 3``, ``disco 3``, ``Scheibe 3``)."""
DISKS = frozenset(["disks", "discs", "rings", "discos", "scheiben", "disques", "dischi", "anéis", "anillos"])
"""The plural: a header (``Moving 3 disks from A to C``), or a prompt."""
STEP = frozenset(["step", "paso", "schritt", "passo", "étape", "etape", "stap", "第", "步"])
"""Words beside a step counter (``step 3``, ``paso 3``, ``第 3 步``)."""
NUMBER = frozenset(["no", "nr", "number", "num", "número", "numero", "nummer"])
MOVING = frozenset(
    [
        "move",
        "moves",
        "moving",
        "moved",
        "mover",
        "mueve",
        "mova",
        "bewege",
        "bewegen",
        "bringe",
        "verschiebe",
        "déplacer",
        "deplacer",
        "sposta",
        "移",
        "动",
    ]
)
"""Verbs of a move line, allowed around plain values (``Move 1 3``)."""
DIRECTION = frozenset({"left", "right"})
PROMPT = frozenset(
    [
        "disks",
        "discs",
        "rings",
        "number",
        "enter",
        "input",
        "n",
        "size",
        "height",
        "how",
        "many",
        "anzahl",
        "número",
        "numero",
        "discos",
        "scheiben",
        "输",
        "入",
    ]
)
"""Words of a prompt for the number of disks (``Enter the number of disks:``): text up to it is no move."""
