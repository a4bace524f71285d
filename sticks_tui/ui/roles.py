"""Who is at the keyboard: the teacher (the terminal app, and `sticks-tui serve`'s teacher's address), a
pupil (a tab opened from the pupils' address), or the projector (serve's class-view address: the class view,
with a pupil's powers, since a projector shows its address to the room).

A pupil plays, trains, reads the records and the analysis, replays and exports; only the teacher wipes,
replaces or restores what the class shares (reset records, reset a brain, reset a brain before training,
restore a back-up). Three walls, each enough alone:
- the action is not offered: `RoleChecks.check_action` hides it (no key, no footer entry, no palette
  command, no help line) and a screen hides its buttons;
- the action refuses when it runs anyway (`teacher_only` on the action method: a direct call);
- the pupil's store refuses the write (`Store.pupil`, `store.TeacherOnly`).
"""

from __future__ import annotations

from functools import wraps

TEACHER = "teacher"
PUPIL = "pupil"
#: `serve`'s projector page: opens on the class view; a pupil's powers otherwise (its address is on the screen)
PROJECTOR = "projector"
ROLES = (TEACHER, PUPIL, PROJECTOR)


def is_teacher(app) -> bool:
    """Whether `app` may wipe, replace and restore (an app without a role is the terminal app: yes)."""
    return getattr(app, "role", TEACHER) == TEACHER


def may_view_class(app) -> bool:
    """Whether `app` may show the class view: the teacher's, and the projector's page."""
    return getattr(app, "role", TEACHER) in (TEACHER, PROJECTOR)


#: What a pupil's tab (and the projector's) says instead of the server's own paths.
CLASS_FOLDER = "the class's data folder"


def hide_paths(app, text: str) -> str:
    """`text` as this tab may show it: for a pupil's tab and the projector's, never the server's paths (the class's
    data folder, the home folder with the teacher's user name): a file in the data folder is named alone
    ("sticks-tui.db"), the folder itself in words. The teacher's tab and the terminal app show them as they are
    (the teacher may need them)."""
    if is_teacher(app) or not text:
        return text
    import os
    from pathlib import Path

    session = getattr(app, "session", None)
    folders: set[str] = set()
    path = getattr(getattr(session, "store", None), "path", None)
    if path is not None:
        folders.add(str(Path(path).parent))
    data_dir = getattr(session, "data_dir", None)
    if data_dir:
        folders.add(str(data_dir).rstrip(os.sep) or os.sep)
        try:
            folders.add(str(Path(data_dir).resolve()))
        except OSError:
            pass
    places = [(folder, CLASS_FOLDER) for folder in folders]
    try:
        places.append((str(Path.home()), "~"))
    except (RuntimeError, KeyError, OSError):  # no home directory
        pass
    for place, words in sorted(places, key=lambda p: -len(p[0])):  # the longest first: the data folder in the home
        if len(place) > 1:
            text = text.replace(place + os.sep, "" if words == CLASS_FOLDER else words + os.sep).replace(place, words)
    return text


def teacher_only(what: str):
    """Mark an `action_*` method as the teacher's: for a pupil it is hidden (with `RoleChecks`) and, if run
    anyway, refuses with a notice saying so (`what`: "reset the records")."""

    def decorate(method):
        @wraps(method)
        def guarded(self, *args, **kwargs):
            if not is_teacher(self.app):
                self.notify(f"Only the teacher can {what}.", title="Not for pupils", severity="warning")
                return None
            return method(self, *args, **kwargs)

        guarded.teacher_only = what
        return guarded

    return decorate


class RoleChecks:
    """Mixin for a Screen: its `teacher_only` actions do not exist for a pupil (check_action False)."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        method = getattr(type(self), f"action_{action}", None)
        if getattr(method, "teacher_only", None) and not is_teacher(self.app):
            return False
        return super().check_action(action, parameters)
