"""Read cachegrind's output file: all instructions, and the allocators'."""

from __future__ import annotations

from pathlib import Path

ALLOCATOR_FILES = ("Objects/obmalloc.c", "malloc/malloc.c", "malloc/arena.c")
"""Source files of the memory allocators: CPython's pymalloc and glibc's malloc."""

ALLOCATOR_FUNCTIONS = frozenset(
    {
        # CPython's pymalloc (Objects/obmalloc.c), for a build whose source lines valgrind cannot read
        "_PyObject_Malloc", "_PyObject_Calloc", "_PyObject_Realloc", "_PyObject_Free", "pymalloc_alloc",
        "pymalloc_free", "pymalloc_realloc", "pymalloc_pool_extend", "allocate_from_new_pool", "insert_to_usedpool",
        "insert_to_freepool", "new_arena", "address_in_range", "arena_map_get", "arena_map_mark_used",
        "arena_map_is_used", "_PyObject_ArenaMmap", "_PyObject_ArenaMunmap",
        # the GNU C library's malloc
        "malloc", "free", "calloc", "realloc", "cfree", "__libc_malloc", "__libc_free", "__libc_calloc",
        "__libc_realloc", "_int_malloc", "_int_free", "_int_realloc", "_int_memalign", "_mid_memalign",
        "malloc_consolidate", "unlink_chunk", "sysmalloc", "systrim", "tcache_init", "tcache_get", "tcache_put",
        "aligned_alloc", "posix_memalign", "memalign", "__posix_memalign", "__libc_memalign",
    }
)  # fmt: skip
"""The allocators' functions, for binaries without line information (suffixes dropped)."""


def read_totals(out: Path) -> tuple[int, int] | None:
    """Return the instructions counted in *out*, and the allocators'; or None."""
    total: int | None = None
    allocator = 0
    counting = False
    source = ""
    try:
        with out.open() as lines:
            for line in lines:
                if line.startswith("fl="):
                    source = line[3:].strip()
                elif line.startswith("fn="):
                    counting = is_allocator(source, line[3:].strip())
                elif counting and line[:1].isdigit():
                    allocator += int(line.split()[1])
                elif line.startswith("summary:"):
                    total = int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None if total is None else (total, allocator)


def is_allocator(source: str, function: str) -> bool:
    """Whether *function*, in the file *source*, is part of a memory allocator.

    >>> is_allocator("/build/Python-3.11.7/Objects/obmalloc.c", "_PyObject_Free")
    True
    >>> is_allocator("???", "_int_free.constprop.0"), is_allocator("./malloc/./malloc/malloc.c", "free")
    (True, True)
    >>> is_allocator("Objects/tupleobject.c", "tuple_dealloc")
    False
    """
    name = function.split("@", 1)[0].split(".", 1)[0]
    return source.endswith(ALLOCATOR_FILES) or name in ALLOCATOR_FUNCTIONS
