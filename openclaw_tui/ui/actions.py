"""Every action of the app, once: its id, default keys, label, description, where it applies, what it runs.

``ACTIONS`` is the registry.  Screens and widgets take their ``BINDINGS`` from it
(``BINDINGS = bindings("merge")``); the footer shows those marked ``show``, the help
screen and the command palette list them with their descriptions, and ``docs/keys.md``
is generated from ``group`` (``python -m openclaw_tui.ui.actions > docs/keys.md``; a test
compares).  A test checks that every binding is in the registry and every entry is bound.

The config file's ``[keys]`` section rebinds keys by full id, or by the part after the
dot when that is unique: ``"main.filter" = "f"``, ``"edit.undo" = "u,ctrl+z"``.
A new screen takes the session in its ``__init__``, declares ``BINDINGS = bindings("<scope>")``
and gets one ``A(...)`` line per key here; the key that opens it runs
``app.open_screen('package.module:Class')`` in scope ``"main"``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from textual.binding import Binding, BindingType

from ..core.i18n import N_, _


@dataclass(frozen=True)
class Action:
    id: str  # stable: the Binding id, the key in [keys]
    keys: str  # the default keys, "key[,key...]" in Textual's names
    label: str  # short, for the footer
    description: str  # one line, for the palette and help
    scope: str  # where it applies: "app", "main", a screen's or a widget's scope
    action: str  # the Textual action it runs there ("archive_entry", "choose('ours')")
    show: bool = False  # in the footer
    priority: bool = False
    palette: bool = True  # offered in the command palette (not plain cursor moves)
    group: str = ""  # the docs/keys.md column: "review", "fix", "git", "app"


A = Action

ACTIONS: tuple[Action, ...] = (
    # q quits from every screen, dialogs too (a priority binding passes the key on when a text field has focus)
    A("app.quit", "q", N_("Quit"), N_("Quit (asks first when an edit is not saved)"), "app", "quit", show=True, priority=True,
      group="app"),
    A("app.help", "question_mark,f1", N_("Help"),
      N_("Keys that work here, the legend of marks, how to review"), "app", "help", show=True, group="app"),
    # j/k in every list: a list without its own j/k (Textual's OptionList) moves its cursor through these
    A("app.list-down", "j", N_("Down"), N_("Down in the focused list"), "app", "list_move(1)", palette=False),
    A("app.list-up", "k", N_("Up"), N_("Up in the focused list"), "app", "list_move(-1)", palette=False),
    A("app.notices", "at", N_("Notices"),
      N_("The last 100 notices, newest first (they fade from the corner)"), "app", "notices", group="app"),
    A("app.maximize", "Z", N_("Maximise"), N_("Maximise the focused pane, or restore the layout"), "app",
      "maximize", group="app"),
    A("app.toggle-theme", "f2", N_("Light/dark"), N_("Switch between the dark and the light theme"), "app",
      "toggle_theme", group="app"),
    # Textual's own command palette key, here so that its footer label is translated like every other
    A("app.command-palette", "ctrl+p", N_("palette"), N_("Open the command palette"), "app", "command_palette",
      priority=True, palette=False),
    A("main.filter", "slash", N_("Filter"),
      N_("Filter the entries: words, status:active, imp:high, tag:x, is:problem"), "main", "focus_filter",
      show=True, group="review"),
    A("main.problems-only", "p", N_("Problems"), N_("Show only entries with a finding (p again: all)"),
      "main", "toggle_problems", show=True, group="review"),
    A("main.next-problem", "n", N_("Next problem"), N_("Go to the next entry with a finding"), "main",
      "next_problem", group="review"),
    A("main.prev-problem", "N", N_("Prev problem"), N_("Go to the previous entry with a finding"), "main",
      "prev_problem", group="review"),
    A("main.audit", "a", N_("Audit"),
      N_("Show the audit list of findings (enter jumps to one); again: hide it"), "main", "toggle_audit",
      show=True, group="review"),
    A("main.write-audit-log", "w", N_("audit.log"), N_("Append the findings to the profile's audit.log"),
      "main", "write_audit_log", show=True, group="review"),
    A("main.reload", "ctrl+r", N_("Reload"), N_("Re-read every profile from disk"), "main", "reload", group="review"),
    A("main.back", "escape", N_("Back"), N_("Back to the entry table (clears the filter when already there)"),
      "main", "back", group="review"),
    A("main.toggle-tree", "t", N_("Tree"), N_("Hide or show the file tree (more room for the entries)"),
      "main", "toggle_tree", group="review"),
    A("main.search", "ctrl+k", N_("Search"),
      N_("Search every file as you type, ranked like the agent ranks (enter jumps to the entry or line)"),
      "main", "open_search", group="review"),
    A("main.agent-view", "i", N_("Agent view"),
      N_("What the agent loads for a topic, why, what it costs, what is left out (enter jumps there)"),
      "main", "open_agent", group="review"),
    A("main.workspace", "W", N_("Workspace"),
      N_("The OpenClaw workspace view of the selected workspace: bootstrap budget, MEMORY.md, USER.md, logs"),
      "main", "open_workspace", group="review"),
    A("main.repair", "f", N_("Repair"),
      N_("Repair the reference finding highlighted in the audit list (a diff first; u undoes)"), "main",
      "repair_finding", group="fix"),
    A("main.focus-entries", "ctrl+e", N_("Entries"), N_("Focus the entry table"), "main", "focus_entries", group="review"),
    A("main.focus-tree", "ctrl+t", N_("Files"), N_("Focus the file tree"), "main", "focus_tree", group="review"),
    A("edit.entry", "e", N_("Edit"), N_("Edit the selected entry (form or YAML)"), "main",
      "ops('edit_entry')", show=True, group="fix"),
    A("edit.external", "E", N_("Edit in $EDITOR"), N_("Open the selected entry in $VISUAL/$EDITOR"), "main",
      "ops('external_edit')", group="fix"),
    A("edit.new", "plus", N_("New"), N_("Write a new entry"), "main", "ops('new_entry')", show=True, group="fix"),
    A("edit.resolve-conflict", "r", N_("Resolve"), N_("Resolve the selected entry's conflict side by side"),
      "main", "ops('resolve_conflict')", show=True, group="fix"),
    A("edit.supersede", "x", N_("Supersede"), N_("Mark the selected entry superseded by another one"), "main",
      "ops('supersede')", group="fix"),
    A("edit.archive", "A", N_("Archive"),
      N_("Move the selected entry (or every picked one, v) to contexts/archive/memories.md"), "main",
      "ops('archive_entry')", group="fix"),
    A("edit.restore", "R", N_("Restore"),
      N_("Move an archived entry back to memories.md (the selected one, or by id)"), "main",
      "ops('restore_entry')", group="fix"),
    A("edit.cold", "c", N_("Cold/active"),
      N_("Switch the selected entry (or every picked one, v) between active and cold"), "main",
      "ops('toggle_cold')", group="fix"),
    A("edit.gc", "ctrl+g", N_("GC"), N_("Preview what the TTL, cold and cap rules would move"), "main",
      "ops('gc_preview')", group="fix"),
    A("edit.compact", "M", N_("Compact"), N_("Merge many small entries on one topic into one"), "main", "ops('compact')", group="fix"),
    A("edit.redact", "X", N_("Redact"), N_("Replace secrets by placeholders"), "main", "ops('redact')", group="fix"),
    A("edit.undo", "u,ctrl+z", N_("Undo"), N_("Undo the last write of this session"), "main", "ops('undo')", show=True, group="fix"),
    A("edit.redo", "U,ctrl+y", N_("Redo"), N_("Write the undone change again"), "main", "ops('redo')", group="fix"),
    A("edit.distil-context", "D", N_("Distil context"),
      N_("End of day: lines of the selected contexts/ file become memories.md entries (source: file:line),"
      " the file moves to contexts/archive/"), "main", "distil_context", group="fix"),
    A("edit.commit", "C", N_("Commit"), N_("Commit the profile's changes to git"), "main", "ops('commit')", show=True, group="fix"),
    A("edit.commit-unavailable", "C", "", N_("Commit (unavailable: the memory is not in a git repository)"),
      "main", "ops('commit_unavailable')", palette=False),
    A("git.history", "H", N_("History"),
      N_("Commits that touched this profile, their semantic diff; rollback and revert"), "main",
      "git('history')", show=True, group="git"),
    A("git.entry-history", "L", N_("Entry history"),
      N_("Every commit that created or changed the selected entry"), "main", "git('entry_history')",
      group="git"),
    A("main.inbox", "I", N_("Inbox"),
      N_("What the agent changed since your review: approve or revert each change"), "main",
      "app.open_screen('openclaw_tui.ui.screens.inbox.inbox_screen:InboxScreen')", group="review"),
    A("git.branches", "B", N_("Branches"), N_("List, create, switch and compare branches"), "main",
      "git('branches')", group="git"),
    A("git.merge", "m", N_("Resolve conflicts"), N_("Resolve the merge conflicts of the memory files"),
      "main", "git('merge')", show=True, group="git"),
    A("git.pull", "F", N_("Pull"), N_("Fetch and merge the current branch"), "main", "git('pull')", group="git"),
    A("git.push", "P", N_("Push"), N_("Push the current branch"), "main", "git('push')", group="git"),
    A("branches.back", "escape", N_("Back"), N_("Back"), "branches", "close", show=True),
    A("branches.switch", "enter", N_("Switch"), N_("Switch"), "branches", "switch", show=True),
    A("branches.new", "n", N_("New branch"), N_("New branch"), "branches", "new", show=True),
    A("branches.compare", "c", N_("Compare with current"), N_("Compare with current"), "branches", "compare", show=True),
    A("branches.mark-base", "m", N_("Mark as base"), N_("Mark as base"), "branches", "mark_base", show=True),
    A("branches.down", "j", N_("Down"), N_("Down"), "branches", "move(1)", palette=False),
    A("branches.up", "k", N_("Up"), N_("Up"), "branches", "move(-1)", palette=False),
    A("commit.commit", "ctrl+s", N_("Commit"), N_("Commit"), "commit", "commit", show=True, priority=True),
    A("commit.cancel", "escape", N_("Cancel"), N_("Cancel"), "commit", "cancel", show=True),
    A("compact.write", "ctrl+s", N_("Write merged entry"), N_("Write merged entry"), "compact", "write",
      show=True, priority=True),
    A("compact.close", "escape", N_("Close"), N_("Close"), "compact", "close", show=True),
    A("confirm.yes", "y", N_("Write"), N_("Write"), "confirm", "answer(True)", show=True),
    A("confirm.no", "n,escape", N_("Cancel"), N_("Cancel"), "confirm", "answer(False)", show=True),
    A("ask.close", "escape", N_("Cancel"), N_("Close the question without an answer"), "ask", "answer(None)", show=True),
    A("ask-text.cancel", "escape", N_("Cancel"), N_("Cancel"), "ask-text", "cancel", show=True),
    A("conflict.keep-left", "h,1", N_("Keep left"), N_("Keep left"), "conflict", "choose('keep-left')", show=True),
    A("conflict.keep-right", "l,2", N_("Keep right"), N_("Keep right"), "conflict", "choose('keep-right')", show=True),
    A("conflict.keep-both", "b", N_("Keep both"), N_("Keep both"), "conflict", "choose('keep-both')", show=True),
    A("conflict.merge", "m", N_("Merge…"), N_("Merge…"), "conflict", "merge", show=True),
    A("conflict.write-merge", "ctrl+s", N_("Write merged"), N_("Write merged"), "conflict", "write_merge",
      show=True, priority=True),
    A("conflict.close", "escape", N_("Close"), N_("Close"), "conflict", "close", show=True),
    A("edit-screen.save", "ctrl+s", N_("Save"), N_("Save"), "edit", "save", show=True, priority=True),
    A("edit-screen.toggle-mode", "ctrl+t", N_("Form/YAML"), N_("Form/YAML"), "edit", "toggle_mode", show=True, priority=True),
    A("edit-screen.external", "ctrl+e", N_("Open in $EDITOR"), N_("Open in $EDITOR"), "edit", "external",
      show=True, priority=True),
    A("edit-screen.compare-disk", "ctrl+o", N_("Yours/disk"), N_("Yours/disk"), "edit", "compare_disk", priority=True),
    A("edit-screen.close", "escape", N_("Close"), N_("Close"), "edit", "close", show=True),
    A("entry-history.back", "escape", N_("Back"), N_("Back"), "entry-history", "close", show=True),
    A("entry-history.down", "j", N_("Down"), N_("Down"), "entry-history", "move(1)", palette=False),
    A("entry-history.up", "k", N_("Up"), N_("Up"), "entry-history", "move(-1)", palette=False),
    A("gc.apply", "ctrl+s", N_("Apply ticked"), N_("Apply ticked"), "gc", "apply", show=True, priority=True),
    A("gc.all", "a", N_("All"), N_("All"), "gc", "all", show=True),
    A("gc.none", "n", N_("None"), N_("None"), "gc", "none", show=True),
    A("gc.close", "escape", N_("Close"), N_("Close"), "gc", "close", show=True),
    A("notices.close", "escape,at", N_("Close"), N_("Close the notice log"), "notices", "close", show=True),
    A("help.close", "escape,question_mark,f1", N_("Close help"), N_("Close help"), "help", "dismiss", show=True),
    A("confirm-diff.yes", "y", N_("Apply"), N_("Apply"), "confirm-diff", "answer(True)", show=True),
    A("confirm-diff.no", "n,escape", N_("Cancel"), N_("Cancel"), "confirm-diff", "answer(False)", show=True),
    A("inbox.back", "escape", N_("Back"), N_("Close the inbox"), "inbox", "close", show=True),
    A("inbox.approve", "a", N_("Approve"), N_("Take the highlighted change into your review mark"), "inbox", "approve",
      show=True),
    A("inbox.revert", "v", N_("Revert"), N_("Put the highlighted change back as it was at your review"), "inbox", "revert",
      show=True),
    A("inbox.revert-night", "N", N_("Revert night"), N_("Revert the whole dreaming night of the highlighted change"),
      "inbox", "revert_group", show=True),
    A("inbox.approve-all", "A", N_("Approve all"), N_("Move your review mark to the folder as it is now"), "inbox",
      "approve_all", show=True),
    A("inbox.edit", "e", N_("Edit"), N_("Open the highlighted change's file in $EDITOR"), "inbox", "edit", show=True),
    A("inbox.undo", "u", N_("Undo"), N_("Undo the last revert"), "inbox", "undo"),
    A("history.back", "escape", N_("Back"), N_("Back"), "history", "close", show=True),
    A("history.charts", "c", N_("Charts"), N_("Memory over time: charts drawn from this folder's history"), "history", "charts",
      show=True),
    A("trends.back", "escape", N_("Back"), N_("Close the charts"), "trends", "close", show=True),
    A("history.toggle-view", "d", N_("Semantic/text diff"), N_("Semantic/text diff"), "history", "toggle_view", show=True),
    A("history.toggle-layout", "s", N_("Side by side/unified"), N_("Side by side/unified"), "history",
      "toggle_layout", show=True),
    A("history.rollback", "r", N_("Roll back to this"), N_("Roll back to this"), "history", "rollback", show=True),
    A("history.revert", "v", N_("Revert this commit"), N_("Revert this commit"), "history", "revert", show=True),
    A("history.down", "j", N_("Down"), N_("Down"), "history", "move(1)", palette=False),
    A("history.up", "k", N_("Up"), N_("Up"), "history", "move(-1)", palette=False),
    A("merge-edit.save", "ctrl+s", N_("Keep this text"), N_("Keep this text"), "merge-edit", "save", show=True),
    A("merge-edit.cancel", "escape", N_("Cancel"), N_("Cancel"), "merge-edit", "cancel", show=True),
    A("merge.pick", "space", N_("Pick side"), N_("Pick side"), "merge", "pick", show=True),
    A("merge.side-ours", "left,h", N_("Ours side"), N_("Ours side"), "merge", "side('ours')"),
    A("merge.side-theirs", "right,l", N_("Theirs side"), N_("Theirs side"), "merge", "side('theirs')"),
    A("merge.both", "b", N_("Both"), N_("Both"), "merge", "choose('both')", show=True),
    A("merge.ours", "o", N_("Ours"), N_("Ours"), "merge", "choose('ours')", show=True),
    A("merge.theirs", "t", N_("Theirs"), N_("Theirs"), "merge", "choose('theirs')", show=True),
    A("merge.edit", "i", N_("Edit result"), N_("Edit result"), "merge", "edit", show=True),
    A("merge.down", "j", N_("Down"), N_("Down"), "merge", "move(1)", palette=False),
    A("merge.up", "k", N_("Up"), N_("Up"), "merge", "move(-1)", palette=False),
    A("merge.next", "n", N_("Next conflict"), N_("Next conflict"), "merge", "next_open(1)"),
    A("merge.prev", "p", N_("Prev conflict"), N_("Prev conflict"), "merge", "next_open(-1)"),
    A("merge.undo", "z", N_("Undo"), N_("Undo"), "merge", "undo", show=True),
    A("merge.suggestions", "a", N_("Take one-sided changes"), N_("Take one-sided changes"), "merge", "accept_suggestions"),
    A("merge.toggle-base", "v", N_("Show/hide base"), N_("Show/hide base"), "merge", "toggle_base"),
    A("merge.editor", "e", N_("$EDITOR"), N_("$EDITOR"), "merge", "open_editor", show=True),
    A("merge.complete", "c", N_("Complete"), N_("Complete"), "merge", "complete", show=True),
    A("merge.abort", "A", N_("Abort"), N_("Abort the merge, rebase, cherry-pick or revert"), "merge", "abort", show=True),
    A("merge.back", "escape", N_("Back"), N_("Back"), "merge", "close", show=True),
    A("new-entry.save", "ctrl+s", N_("Save"), N_("Save"), "new-entry", "save", show=True, priority=True),
    A("new-entry.close", "escape", N_("Close"), N_("Close"), "new-entry", "close", show=True),
    A("redact.apply", "ctrl+s", N_("Redact ticked"), N_("Redact ticked"), "redact", "apply", show=True, priority=True),
    A("redact.all", "a", N_("All"), N_("All"), "redact", "all", show=True),
    A("redact.none", "n", N_("None"), N_("None"), "redact", "none", show=True),
    A("redact.close", "escape", N_("Close"), N_("Close"), "redact", "close", show=True),
    A("save-conflict.mine", "m", N_("Keep mine"), N_("Keep mine"), "save-conflict", "choose('mine')", show=True),
    A("save-conflict.disk", "d", N_("Take disk"), N_("Take disk"), "save-conflict", "choose('disk')", show=True),
    A("save-conflict.merge", "e", N_("Edit merged"), N_("Edit merged"), "save-conflict", "choose('merge')", show=True),
    A("save-conflict.back", "escape", N_("Back"), N_("Back"), "save-conflict", "choose('')", show=True),
    A("search.back", "escape", N_("Back"), N_("Close the search"), "search", "close", show=True),
    A("search.results", "down", N_("Results"), N_("Move into the results"), "search", "focus_results", palette=False),
    A("search.reindex", "ctrl+r", N_("Re-index"), N_("Re-read changed files into the index, search again"), "search",
      "reindex", show=True),
    A("agent.back", "escape", N_("Back"), N_("Close the agent view"), "agent", "close", show=True),
    A("agent.session", "s", N_("Main/shared session"), N_("Switch a workspace between the main and a shared session"),
      "agent", "toggle_session", show=True),
    A("agent.parts", "down", N_("Parts"), N_("Move into the list of parts"), "agent", "focus_list", palette=False),
    A("ws.tab-boot", "1", N_("Bootstrap"), N_("Tab 1: bootstrap files against their limits"), "ws", "tab('boot')"),
    A("ws.tab-mem", "2", N_("MEMORY"), N_("Tab 2: MEMORY.md sections and items"), "ws", "tab('mem')"),
    A("ws.tab-user", "3", N_("USER"), N_("Tab 3: USER.md directives"), "ws", "tab('user')"),
    A("ws.tab-logs", "4", N_("Logs"), N_("Tab 4: daily logs"), "ws", "tab('logs')"),
    A("ws.tab-review", "5", N_("Review"), N_("Tab 5: what dreaming promoted, to accept or reject"), "ws", "tab('review')"),
    A("ws.tab-dreams", "6", N_("Dreaming"), N_("Tab 6: DREAMS.md and dreaming's machine files, read-only, with sizes"), "ws",
      "tab('dreams')"),
    A("ws.filter-rows", "slash", N_("Filter"), N_("Filter the rows of this tab"), "ws", "filter", show=True),
    A("ws.next-preview", "n", N_("Next file"), N_("Preview the next bootstrap file"), "ws", "next_preview"),
    A("ws.session", "s", N_("Session"), N_("Switch between the main and a shared session"), "ws", "session"),
    A("ws.edit-row", "e", N_("Edit"), N_("Edit the highlighted item"), "ws", "edit", show=True),
    A("ws.remove", "x,delete", N_("Remove/reject"), N_("Remove the highlighted item (review tab: reject it)"), "ws", "remove",
      show=True),
    A("ws.move", "m", N_("Move"), N_("Move the highlighted MEMORY.md item to another section"), "ws", "move"),
    A("ws.item-history", "L", N_("Item history"), N_("Every commit that added, reworded or moved the highlighted item or "
         "directive"), "ws", "item_history"),
    A("item-history.back", "escape", N_("Back"), N_("Back"), "item-history", "close", show=True),
    A("ws.supersede", "S", N_("Supersede"), N_("Mark the USER.md directive superseded (optionally with a new one)"), "ws",
      "supersede"),
    A("ws.add-directive", "plus", N_("Add directive"), N_("Add a USER.md directive"), "ws", "add_directive"),
    A("ws.distil", "D", N_("Distil"), N_("Distil lines of the daily log into a MEMORY.md section"), "ws", "distil",
      show=True),
    A("ws.remove-old", "R", N_("Remove old distilled logs"), N_("Remove fully distilled logs older than 30 days"), "ws",
      "remove_old"),
    A("ws.accept", "a", N_("Accept"), N_("Accept the promoted item"), "ws", "accept(False)", show=True),
    A("ws.accept-strip", "A", N_("Accept+strip"), N_("Accept the promoted item, stripping its machine metadata"), "ws",
      "accept(True)"),
    A("ws.undo", "u,ctrl+z", N_("Undo"), N_("Undo the last write of this session (here or on the main screen)"), "ws", "undo",
      show=True),
    A("ws.redo-write", "U,ctrl+y", N_("Redo"), N_("Write the undone change again"), "ws", "redo"),
    A("ws.commit", "C", N_("Commit"), N_("Commit the files this view changed"), "ws", "commit"),
    A("ws.close", "escape", N_("Back"), N_("Close the workspace view"), "ws", "close", show=True),
    A("ws-prompt.cancel", "escape", N_("Cancel"), N_("Cancel"), "ws-prompt", "cancel", show=True),
    A("ws-pick.cancel", "escape", N_("Cancel"), N_("Cancel"), "ws-pick", "cancel", show=True),
    A("ws-distil.apply", "ctrl+s", N_("Distil ticked"), N_("Distil the ticked lines"), "ws-distil", "apply", show=True,
      priority=True),
    A("ws-distil.drop", "ctrl+d", N_("Distil, drop the rest"), N_("Distil the ticked lines, mark the rest dropped"),
      "ws-distil", "apply_drop", show=True, priority=True),
    A("ws-distil.cancel", "escape", N_("Cancel"), N_("Cancel"), "ws-distil", "cancel", show=True),
    A("ctx-distil.apply", "ctrl+s", N_("Distil ticked"), N_("Add the ticked lines as entries, move the file to the archive"),
      "ctx-distil", "apply", show=True, priority=True),
    A("ctx-distil.cancel", "escape", N_("Cancel"), N_("Cancel"), "ctx-distil", "cancel", show=True),
    A("ws-rows.up", "up,k", N_("Up"), N_("Up"), "ws-rows", "move(-1)", palette=False),
    A("ws-rows.down", "down,j", N_("Down"), N_("Down"), "ws-rows", "move(1)", palette=False),
    A("ws-rows.page-up", "pageup", N_("Page up"), N_("Page up"), "ws-rows", "page(-1)", palette=False),
    A("ws-rows.page-down", "pagedown", N_("Page down"), N_("Page down"), "ws-rows", "page(1)", palette=False),
    A("ws-rows.first", "home", N_("First"), N_("First"), "ws-rows", "jump(0)", palette=False),
    A("ws-rows.last", "end", N_("Last"), N_("Last"), "ws-rows", "jump(-1)", palette=False),
    A("results.up", "up,k", N_("Up"), N_("Up"), "results", "cursor_up", palette=False),
    A("results.down", "down,j", N_("Down"), N_("Down"), "results", "cursor_down", palette=False),
    A("results.page-up", "pageup", N_("Page up"), N_("Page up"), "results", "page_up", palette=False),
    A("results.page-down", "pagedown", N_("Page down"), N_("Page down"), "results", "page_down", palette=False),
    A("results.first", "home", N_("First"), N_("First"), "results", "first", palette=False),
    A("results.last", "end", N_("Last"), N_("Last"), "results", "last", palette=False),
    A("results.open", "enter", N_("Open"), N_("Open the result: the entry, or the file at its line"), "results", "select",
      palette=False),
    A("repair.apply", "enter,ctrl+s", N_("Apply"), N_("Write the highlighted repair"), "repair", "apply", show=True,
      priority=True),
    A("repair.undo", "u,ctrl+z", N_("Undo"), N_("Undo the last repair written here"), "repair", "undo", show=True),
    A("repair.group", "o", N_("Only this one / all alike"), N_("Repair only this finding, or every one naming the target"),
      "repair", "toggle_group", show=True),
    A("repair.all-safe", "S", N_("Every safe repair"), N_("Write every repair that has one certain candidate"), "repair",
      "all_safe", show=True),
    A("repair.close", "escape", N_("Close"), N_("Close"), "repair", "close", show=True),
    A("audit.up", "k", N_("Up"), N_("Up"), "audit", "cursor_up", palette=False),
    A("audit.down", "j", N_("Down"), N_("Down"), "audit", "cursor_down", palette=False),
    A("refs.up", "k", N_("Up"), N_("Up"), "refs", "cursor_up", palette=False),
    A("refs.down", "j", N_("Down"), N_("Down"), "refs", "cursor_down", palette=False),
    A("entries.up", "up,k", N_("Up"), N_("Up"), "entries", "cursor_up", palette=False),
    A("entries.down", "down,j", N_("Down"), N_("Down"), "entries", "cursor_down", palette=False),
    A("entries.page-up", "pageup,ctrl+b", N_("Page up"), N_("Page up"), "entries", "page_up", palette=False),
    A("entries.page-down", "pagedown,ctrl+f,space", N_("Page down"), N_("Page down"), "entries", "page_down", palette=False),
    A("entries.first", "home,g", N_("First"), N_("First"), "entries", "first", palette=False),
    A("entries.last", "end,G", N_("Last"), N_("Last"), "entries", "last", palette=False),
    A("entries.select", "enter", N_("Refs"), N_("Move into the references of the entry (Enter there jumps)"),
      "entries", "select", show=True, group="review"),
    A("entries.sort", "s", N_("Sort"), N_("Sort by the next column (file order, id, status, importance...)"),
      "entries", "sort_next", show=True, group="review"),
    A("entries.sort-reverse", "S", N_("Reverse sort"), N_("Reverse the sort order"), "entries", "sort_reverse"),
    A("entries.pick", "v", N_("Pick"),
      N_("Pick the entry (or unpick it): archive (A) and cold (c) act on every picked entry"), "entries",
      "pick", group="review"),
    A("entries.pick-all", "asterisk", N_("Pick all shown"), N_("Pick every entry the filter shows"),
      "entries", "pick_all", group="review"),
    A("entries.clear-picks", "V", N_("Clear picks"), N_("Unpick every picked entry"), "entries", "clear_picks", group="review"),
    A("source.up", "up,k", N_("Up"), N_("Up"), "source", "cursor_up", palette=False),
    A("source.down", "down,j", N_("Down"), N_("Down"), "source", "cursor_down", palette=False),
    A("source.page-up", "pageup,ctrl+b", N_("Page up"), N_("Page up"), "source", "page_up", palette=False),
    A("source.page-down", "pagedown,ctrl+f,space", N_("Page down"), N_("Page down"), "source", "page_down", palette=False),
    A("source.first", "home,g", N_("First"), N_("First"), "source", "first", palette=False),
    A("source.last", "end,G", N_("Last"), N_("Last"), "source", "last", palette=False),
    A("source.follow", "enter", N_("Follow ref"), N_("Follow ref"), "source", "follow", show=True),
    A("source.next-ref", "right_square_bracket,n", N_("Next ref"), N_("Next ref"), "source", "next_ref", show=True),
    A("source.prev-ref", "left_square_bracket,N", N_("Prev ref"), N_("Prev ref"), "source", "prev_ref"),
    A("file.toggle-mode", "m", N_("Rendered/source"), N_("Rendered/source"), "file", "toggle_mode", show=True),
    A("tree.up", "k", N_("Up"), N_("Up"), "tree", "cursor_up", palette=False),
    A("tree.down", "j", N_("Down"), N_("Down"), "tree", "cursor_down", palette=False),
    A("tree.collapse", "h", N_("Collapse"), N_("Collapse"), "tree", "collapse_node"),
    A("tree.expand", "l", N_("Expand"), N_("Expand"), "tree", "expand_node"),
)

BY_ID: dict[str, Action] = {a.id: a for a in ACTIONS}
if len(BY_ID) != len(ACTIONS):  # pragma: no cover - caught by the tests at once
    raise RuntimeError("two actions share an id")


def bindings(scope: str) -> list[BindingType]:
    """The Textual bindings of one scope (a screen's or a widget's ``BINDINGS``)."""
    return [
        Binding(
            a.keys,
            a.action,
            a.label,  # English: the footer and the help translate it where they show it (widgets/footer.py)
            show=a.show,
            priority=a.priority,
            id=a.id,
            tooltip=_(a.description) if a.description != a.label else "",
        )
        for a in ACTIONS
        if a.scope == scope
    ]


def keymap(keys: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """Binding id -> keys for ``App.set_keymap`` from the config's [keys], and the problems found.

    A [keys] name is an action id, or the part after the dot of exactly one id."""
    out: dict[str, str] = {}
    problems: list[str] = []
    for name, value in keys.items():
        found = [name] if name in BY_ID else [a.id for a in ACTIONS if a.id.endswith("." + name)]
        if len(found) == 1:
            out[found[0]] = ",".join(k.strip() for k in value.split(",") if k.strip())
        elif found:
            problems.append(_("[keys] %(name)r is ambiguous: %(ids)s") % {"name": name, "ids": ", ".join(found)})
        else:
            problems.append(_("[keys] %(name)r names no action (see `?` for the ids)") % {"name": name})
    return out, problems


KEY_NAMES = {
    "slash": "/",
    "plus": "+",
    "asterisk": "*",
    "question_mark": "?",
    "escape": "esc",
    "left_square_bracket": "[",
    "right_square_bracket": "]",
    "at": "@",
}


def show_keys(keys: str) -> str:
    """``"u,ctrl+z"`` as a reader writes it: ``u / ctrl+z``."""
    return " / ".join(KEY_NAMES.get(k, k) for k in keys.split(","))


GROUP_TITLES = (("review", "review"), ("fix", "fix"), ("git", "git"), ("app", "everywhere"))


def keys_table() -> str:
    """The keys table of ``docs/keys.md``: one row per action of the review screen and the app."""
    lines = ["| keys | action | what it does | group |", "|---|---|---|---|"]
    for group, title in GROUP_TITLES:
        for a in ACTIONS:
            if a.group == group and a.label:
                desc = a.description.replace("|", "\\|")
                lines.append(f"| `{show_keys(a.keys)}` | {a.label} | {desc} | {title} |")
    return "\n".join(lines) + "\n"


KEYS_PAGE = """# Keys

<!-- generated by `python -m openclaw_tui.ui.actions > docs/keys.md` from openclaw_tui/ui/actions.py; a test compares -->

Every key is shown in the footer, listed by `?`/F1 (with a legend of the
marks) and offered in the command palette (`ctrl+p`).

{table}
Keys can be rebound in the config file's `[keys]` section (`openclaw-tui config`
prints where it is): `"main.filter" = "f"`, or `"filter" = "f"` when the
name after the dot is unique.
"""


def keys_page() -> str:
    """The whole of ``docs/keys.md``."""
    return KEYS_PAGE.format(table=keys_table())


if __name__ == "__main__":  # pragma: no cover
    print(keys_page(), end="")
