"""The words the move rules know, in the languages programs print in."""

from __future__ import annotations


def _words(text: str) -> frozenset[str]:
    """The set of the words of *text*, split at whitespace."""
    return frozenset(text.split())


FROM = _words(
    """
    from de desde von vom da dal dalla dallo do dos van uit ze из от 从 由 自 dari с со iz z od från
    fra từ από
    """
)
"""Words before a move's source (a capital letter is a peg, not ``Z``)."""
TO = _words(
    """
    to onto into a al hacia hasta para pra nach zu zum zur auf à vers sur naar op в во на 到 至 ke na till
    til sang đến к ко verso allo σε στο στον στη στην
    """
)
"""Words before a move's destination."""
THE = _words("the la el le les los las lo der die das dem den os il τον την το τη を の は 을 를 은 는 이 가")
"""Articles before a peg, and the particles that mark a disk or a peg."""
POST_FROM = _words("から より 에서 부터 로부터 으로부터 dan den tan ten")
"""Words after a move's source: ``A から C に``, ``A에서 C로``, ``A'dan C'ye``."""
POST_TO = _words("に へ まで 로 으로 에 까지 ya ye a e na ne")
"""Words after a move's destination, with :data:`POST_FROM`."""
KOREAN_PARTICLES: tuple[str, ...] = ("으로부터", "로부터", "에서", "부터", "으로", "까지", "로", "에")
KOREAN_PARTICLES += ("을", "를", "은", "는", "이", "가")
"""The particles split from the end of a Korean word, longest first."""
CLASSIFIER = _words("个 個 号 號 块 塊 枚 번")
"""Counters between a number and the word disk (``1 号盘``): the disk."""
OF = frozenset(["of"])
PEGWORD = _words(
    """
    peg pegs pole rod tower pillar post needle column stack spindle stick pin torre torres varilla palo
    poste columna pila turm stab stange säule haste pino pilha tour tige piquet asta piolo perno stelo
    paletto axe tháp cọc toren stok 柱 杆 塔 座 棒 杭 기둥 탑 막대 стержня стержень стержне стержню башни башню
    башня башне штырь штыря колышка колышек cột tiang menara wieży wieżę wieża słupka słupek pręta pręt
    tyč tyče tyčí kolík pinne pinnen stapel torn tornet tårn πύργο στύλο çubuk kule
    """
)
"""Words naming a peg (``peg A``); never peg names themselves."""
DISK = _words(
    """
    disk disc ring disco scheibe disque disko anel anillo 盘 盤 碟 원반 원판 диск диска кольцо кольца đĩa tầng
    anello kolo koło cakram piringan krążek krążka schijf skiva skivan disken δίσκο δίσκος diski
    """
)
"""The word before a disk's number (``disk 3``, ``Scheibe 3``)."""
DISKS = _words("disks discs rings discos scheiben disques dischi anéis anillos")
"""The plural: a header (``Moving 3 disks from A to C``), or a prompt."""
STEP = _words("step paso schritt passo étape etape stap 第 步 手 шаг ход bước langkah krok steg 단계 adım")
"""Words beside a step counter (``step 3``, ``第 3 步``)."""
NUMBER = _words("no nr number num número numero nummer номер 번 số")
"""Words between a peg word and its label (``peg number 3``, ``3번``)."""
MOVING = _words(
    """
    move moves moving moved mover mueve mova bewege bewegen bringe verschiebe déplacer deplacer déplace
    deplace déplacez deplacez déplacé sposta 移 动 動 переложить переместить передвинуть переместите
    перенести dvigaem chuyển pindahkan przenieś przenies flytta 이동 옮김 옮기기 taşı
    """
)
"""Verbs of a move line, allowed around plain values (``Move 1 3``)."""
DIRECTION = frozenset({"left", "right"})
PROMPT = _words(
    "disks discs rings number enter input n size height how many anzahl número numero discos scheiben 输 入"
)
"""Words of a prompt for the number of disks: text up to it is no move."""
