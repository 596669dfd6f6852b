"""Reading the parsed command line into parameters and solve options.

Unknown ``--NAME VALUE`` options are taken as spec parameters only when the
spec declares NAME; otherwise they are refused with the closest flag or
parameter name.
"""

from __future__ import annotations

from gridlang.core.errors import BackendError, ParamError, closest

_CLOCKS = ("cpsat.max_time_in_seconds", "milp.highs_options.time_limit")
"""Solver settings that would start a clock of their own beside the command's deadline."""




def _shorthand_params(rest: list[str], args) -> list[str]:
    """``--size 12`` and ``--size=12`` -> ``size=12``, for parameters the spec declares.

    Args:
        rest: the arguments argparse did not recognise, in order.
        args: the parsed arguments (``spec``, the subcommand's parser).

    Returns:
        ``NAME=VALUE`` strings, as ``--param`` takes them.

    Raises:
        ParamError: an argument is not ``--NAME``; ``--NAME`` is neither an
            option of the subcommand nor a parameter of the spec (the message
            suggests the closest of either); a value is missing.
        GridlangError: the spec itself does not parse or check (located).
    """
    declared = _declared_params(args.spec, getattr(args, "url", None))
    out, i = [], 0
    while i < len(rest):
        arg = rest[i]
        if not arg.startswith("--") or len(arg) < 3:
            raise ParamError(f"unexpected argument {arg!r}")
        name = arg[2:]
        flag = "--" + name.partition("=")[0]
        if flag[2:].replace("-", "_") not in declared:
            raise ParamError(_unknown_flag(flag, args, declared))
        if "=" in name:
            out.append(name)
            i += 1
            continue
        if i + 1 >= len(rest):
            raise ParamError(f"{arg} needs a value")
        out.append(f"{name}={rest[i + 1]}")
        i += 2
    return out


def _declared_params(spec_path: str | None, url: str | None = None) -> list[str]:
    """The parameter names a spec declares, in order (parsing and checking it).

    Args:
        spec_path: the spec; None takes the bundled spec of ``url``'s genre.
        url: a puzz.link URL (``solve --url``), or None.

    Raises:
        ParamError: no spec and no URL.
        GridlangError: the spec or the URL is wrong (located).
    """
    # imported on use, not at start-up
    from gridlang.language.parser import parse_and_check_file

    if spec_path is None:
        if url is None:
            raise missing_spec()
        # imported on use, not at start-up
        from gridlang.formats.puzzlink import bundled_spec, parse_url

        link = parse_url(url)
        spec_path = bundled_spec(link.pid, link)
    return list(parse_and_check_file(spec_path)[1].params)


def missing_spec() -> ParamError:
    """The error for ``solve`` without a spec and without ``--url``."""
    return ParamError("give the spec: gridlang solve SPEC --map MAP (only --url may leave it out, for its "
                      "genre's bundled spec)")


def spec_name(args) -> str:
    """The spec as a message names it: its path, or the bundled spec ``--url`` implies."""
    if args.spec is not None:
        return str(args.spec)
    if getattr(args, "url", None):
        # imported on use, not at start-up
        from gridlang.formats.puzzlink import bundled_spec, parse_url

        link = parse_url(args.url)
        return str(bundled_spec(link.pid, link))
    raise missing_spec()


def _unknown_flag(flag: str, args, declared: list[str]) -> str:
    """The message for a ``--NAME`` that is neither an option nor a declared
    parameter, naming the closest option or parameter (difflib ratio 0.6 or more)."""
    candidates = args.command_parser.long_options + [f"--{p}" for p in declared]
    import difflib

    close = difflib.get_close_matches(flag, candidates, n=1, cutoff=0.6)
    head = f"{flag} is neither an option of 'gridlang {args.command}' nor a parameter of {spec_name(args)}"
    if close:
        return f"{head}; did you mean {close[0]}?"
    return (f"{head} (its parameters: {', '.join(declared) or 'none'}; "
            f"the options: gridlang {args.command} --help)")


def _params(args) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in args.param or []:
        if "=" not in item:
            raise ParamError(f"--param {item!r}: write NAME=VALUE")
        name, value = item.split("=", 1)
        out[name.strip().replace("-", "_")] = value.strip()
    return out


def settings_of(args) -> dict[str, object]:
    """``--set BACKEND.SETTING=VALUE`` pairs by key, each naming a backend that is the one chosen
    (any, under ``auto``).

    Raises:
        BackendError: a prefix that names no backend (with the closest), or another backend than ``--backend``.
    """
    # imported on use, not at start-up
    from gridlang.ir.backend import backend_names

    extra = {}
    names = backend_names()
    for key, value in args.set:
        prefix = key.split(".", 1)[0]
        if prefix not in names:
            hint = f"did you mean {close}.{key.split('.', 1)[1]}?" if (close := closest(prefix, names)) else \
                f"the backends are {', '.join(names)}"
            raise BackendError(f"--set {key}: there is no backend {prefix!r}; {hint}")
        if prefix != args.backend and args.backend != "auto":
            raise BackendError(f"--set {key}: the setting is for backend {prefix!r}, "
                               f"but the backend is {args.backend!r}")
        extra[key] = value
    return extra


def _options(args):
    # imported on use, not at start-up
    from gridlang.ir.backend import SolveOptions

    extra = settings_of(args)
    for key in extra:
        if key in _CLOCKS:
            raise BackendError(f"--set {key}: give the time limit as --time-limit SECONDS, the one clock of "
                               "the whole command (parsing, every cut round, every solve)")
    # imported on use, not at start-up
    from gridlang.core.memory import default_limit

    memory_limit = getattr(args, "memory_limit", None)
    return SolveOptions(time_limit=args.time_limit, workers=args.workers, connectivity=args.connectivity,
                        mip_gap=args.mip_gap, log=args.log, extra=extra,
                        memory_limit=memory_limit if memory_limit is not None else default_limit())
