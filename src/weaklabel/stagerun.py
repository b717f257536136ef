"""A pipeline stage as a transaction that measures itself.

Every stage command of ``dvc.yaml`` (``python -m weaklabel.pipeline run NAME``, ``... data``,
``python -m weaklabel.readme``) runs inside :class:`StageRun`:

- **The committed outputs survive a failure.** ``dvc.yaml`` marks every output
  ``persist: true``, so DVC no longer deletes a stage's outputs before running it. Before the
  stage writes anything, its declared outputs (``outs`` and ``metrics`` of its ``dvc.yaml``
  entry) are copied to ``.weaklabel_cache/stages/<stage>/`` (git-ignored). A run that
  succeeds drops the copy; a run that raises, is interrupted (Ctrl-C) or is terminated
  (SIGTERM) ends its child processes and puts the copy back, files the run created removed.
- **A killed stage cleans up after itself.** A SIGKILL leaves no chance to run code, so a
  watchdog process (its own session, so that a signal to the process group of ``dvc repro``
  does not reach it) holds the read end of a pipe from the stage process. When the pipe
  closes without the stage having said "done", the watchdog kills every process the stage
  started (the notebook kernel runs in its own session and its loky workers would otherwise
  outlive it by minutes), puts the previous outputs back and removes temporary files of
  interrupted atomic writes. Should the watchdog be killed as well, the copy stays and
  ``python -m weaklabel.pipeline restore <stage>`` puts it back; every stage prints that
  command when it starts, and the next run of the stage restores the copy first.
- **The stage measures itself.** Wall seconds, CPU seconds of the stage and every process it
  started (sampled every :data:`SAMPLE_SECONDS`), the peak of their summed resident memory
  (sampled likewise), the profile, CPU model, core count and finish time go into a ``run``
  block of each of the stage's ``metrics.json`` files (:func:`write_run_block`); the block is
  volatile for the reproducibility comparison (:data:`weaklabel.reproducibility.VOLATILE`).
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

import yaml

from ._io import TEMP_MARK, write_json

#: where the previous outputs of a running stage are kept (git-ignored)
BACKUP_DIR = ".weaklabel_cache/stages"
#: marker of a copy that belongs to a run that has not finished
MARKER = "RUNNING"
#: how often the resource sampler and the watchdog look at the process tree
SAMPLE_SECONDS = 0.5
#: the message a stage process sends its watchdog when it ends normally
_DONE = b"done\n"


# --------------------------------------------------------------------------- dvc.yaml
def stage_outputs(stage: str, root: Path) -> tuple[list[str], list[str]]:
    """``(outs, metrics)`` of ``stage`` in ``root/dvc.yaml``, as relative paths."""
    spec = yaml.safe_load((root / "dvc.yaml").read_text())["stages"]
    if stage not in spec:
        raise ValueError(f"stage must be one of {sorted(spec)} (dvc.yaml), got {stage!r}.")

    def paths(key):
        return [o if isinstance(o, str) else next(iter(o)) for o in spec[stage].get(key, [])]

    return paths("outs"), paths("metrics")


def stage_of_command(words: list[str], root: Path) -> str:
    """The ``dvc.yaml`` stage whose ``cmd`` starts with ``words`` (e.g. ``["python", "-m",
    "weaklabel.pipeline", "run", "mcls"]``); the first word of each is compared by name."""
    spec = yaml.safe_load((root / "dvc.yaml").read_text())["stages"]
    for name, st in spec.items():
        cmd = str(st.get("cmd", "")).split()
        if cmd[:len(words)] == words:
            return name
    raise ValueError(f"no stage of dvc.yaml runs {' '.join(words)!r}.")


# --------------------------------------------------------------------------- backup / restore
def backup_dir(stage: str, root: Path) -> Path:
    return root / BACKUP_DIR / stage


def _is_temp(p: Path) -> bool:
    """A temporary file of :func:`weaklabel._io.atomic_path` (``.<name>.<random>.partial``)."""
    return p.name.startswith(".") and TEMP_MARK in p.name


def remove_temp_files(paths: list[str], root: Path) -> int:
    """Remove temporary files of interrupted atomic writes beside or inside ``paths``."""
    n = 0
    dirs = set()
    for rel in paths:
        p = root / rel
        dirs.add(p if p.is_dir() else p.parent)
    for d in dirs:
        if not d.is_dir():
            continue
        for f in d.rglob(".*"):
            if f.is_file() and _is_temp(f):
                f.unlink(missing_ok=True)
                n += 1
    return n


def save_outputs(stage: str, paths: list[str], root: Path) -> Path:
    """Copy the existing ``paths`` to the stage's backup and mark it running. A backup that
    is already marked (a run that was killed before it could restore) is kept as it is: it
    holds the outputs from before that run, and the outputs on disk may be partial."""
    bdir = backup_dir(stage, root)
    if (bdir / MARKER).is_file():
        restore_outputs(stage, root, keep=True)
        return bdir
    if bdir.exists():
        shutil.rmtree(bdir)
    files = bdir / "files"
    files.mkdir(parents=True)
    existed = []
    for rel in paths:
        src = root / rel
        if src.is_dir():
            shutil.copytree(src, files / rel, ignore=lambda d, names: [
                n for n in names if _is_temp(Path(d) / n)])
        elif src.is_file():
            (files / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, files / rel)
        else:
            continue
        existed.append(rel)
    (bdir / "outputs.json").write_text(json.dumps({"paths": paths, "existed": existed}))
    (bdir / MARKER).write_text(f"{os.getpid()}\n")
    return bdir


def running_pid(stage: str, root: Path) -> int | None:
    """The pid of the process that is running ``stage`` (recorded in its backup's marker),
    or None when no run of it is alive."""
    import psutil

    try:
        pid = int((backup_dir(stage, root) / MARKER).read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    if pid == os.getpid() or not psutil.pid_exists(pid):
        return None
    try:
        cmd = " ".join(psutil.Process(pid).cmdline())
    except psutil.Error:
        return None
    return pid if "weaklabel" in cmd else None


def restore_outputs(stage: str, root: Path, keep: bool = False) -> list[str]:
    """Put the outputs saved by :func:`save_outputs` back: every declared path is replaced
    by its saved copy, or removed when it did not exist before the run. ``keep`` leaves the
    backup (still marked running) in place. Returns the restored paths."""
    bdir = backup_dir(stage, root)
    if not (bdir / MARKER).is_file():
        raise FileNotFoundError(
            f"no saved outputs of stage {stage!r} in {bdir.relative_to(root)}: nothing to "
            "restore (the last run finished, or the outputs are in git: "
            f"`git checkout -- <paths>` of the stage {stage!r} in dvc.yaml).")
    manifest = json.loads((bdir / "outputs.json").read_text())
    files = bdir / "files"
    for rel in manifest["paths"]:
        dst = root / rel
        if dst.is_dir() and not dst.is_symlink():
            shutil.rmtree(dst)
        elif dst.exists() or dst.is_symlink():
            dst.unlink()
        if rel in manifest["existed"]:
            src = files / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            if src.is_dir():
                shutil.copytree(src, dst)
            else:
                shutil.copy2(src, dst)
    remove_temp_files(manifest["paths"], root)
    if not keep:
        shutil.rmtree(bdir)
    return list(manifest["existed"])


def drop_backup(stage: str, root: Path) -> None:
    shutil.rmtree(backup_dir(stage, root), ignore_errors=True)


def interrupted_stages(root: Path) -> list[str]:
    """Stages whose last run was killed before it could finish or restore."""
    base = root / BACKUP_DIR
    return sorted(p.name for p in base.iterdir() if (p / MARKER).is_file()) \
        if base.is_dir() else []


class StageOutputError(RuntimeError):
    """A stage that ended without error but did not write one of its declared outputs."""


def check_fresh(outs: list[str], since: float, root: Path) -> list[str]:
    """Every declared output must have been written since ``since`` (DVC no longer deletes
    outputs before a run, so an output the run forgot would otherwise pass as new): a file
    must be newer, a folder must hold a file that is. Files of an output folder that this run
    did not write are stale leftovers (what DVC's deletion used to remove): they are removed
    and returned. Raises :class:`StageOutputError` naming the outputs not written."""
    missing, stale = [], []
    for rel in outs:
        p = root / rel
        if p.is_dir():
            files = [f for f in p.rglob("*") if f.is_file()]
            old = [f for f in files if f.stat().st_mtime < since]
            if len(old) == len(files):
                missing.append(rel)
                continue
            for f in old:
                f.unlink()
                stale.append(f.relative_to(root).as_posix())
        elif not p.is_file() or p.stat().st_mtime < since:
            missing.append(rel)
    if missing:
        raise StageOutputError(f"the stage ended without writing {', '.join(missing)} "
                               "(declared in dvc.yaml); its previous outputs are put back.")
    return stale


# --------------------------------------------------------------------------- process tree
def _tree(pid: int) -> dict[int, object]:
    """``{pid: psutil.Process}`` of the live descendants of ``pid``."""
    import psutil

    try:
        return {c.pid: c for c in psutil.Process(pid).children(recursive=True)}
    except psutil.Error:
        return {}


def kill_processes(procs) -> int:
    """SIGKILL every process of ``procs`` (psutil.Process objects) that is still the process
    it was (pid and start time), and wait for them briefly. Returns how many were killed."""
    import psutil

    alive = []
    for p in procs:
        try:
            if p.is_running():  # same pid and the same start time
                p.kill()
                alive.append(p)
        except psutil.Error:
            pass
    psutil.wait_procs(alive, timeout=5)
    return len(alive)


class Sampler(threading.Thread):
    """CPU seconds and summed resident memory of this process and every descendant,
    sampled every :data:`SAMPLE_SECONDS` (a descendant's CPU counts as last seen)."""

    def __init__(self, pid: int | None = None):
        super().__init__(daemon=True)
        import psutil

        self.pid = pid or os.getpid()
        self.me = psutil.Process(self.pid)
        self.cpu: dict[tuple[int, float], float] = {}
        self.peak_rss = 0
        self._stop_event = threading.Event()

    def sample(self) -> None:
        import psutil

        rss = 0
        for p in [self.me, *_tree(self.pid).values()]:
            try:
                with p.oneshot():
                    t = p.cpu_times()
                    key = (p.pid, p.create_time())
                    self.cpu[key] = t.user + t.system
                    rss += p.memory_info().rss
            except psutil.Error:
                continue
        self.peak_rss = max(self.peak_rss, rss)

    def run(self) -> None:
        while not self._stop_event.wait(SAMPLE_SECONDS):
            self.sample()

    def stop(self) -> None:
        self._stop_event.set()
        self.join(timeout=5)
        self.sample()

    @property
    def cpu_seconds(self) -> float:
        return float(sum(self.cpu.values()))


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def run_block(wall: float, cpu: float, peak_rss: int, profile: str | None) -> dict:
    """The ``run`` block of a stage's ``metrics.json`` (all of it volatile)."""
    return {"wall_seconds": round(wall, 1), "cpu_seconds": round(cpu, 1),
            "peak_rss_mb": round(peak_rss / 2**20, 1), "profile": profile,
            "cpu_model": cpu_model(), "cpu_count": os.cpu_count(),
            "finished": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}


def write_run_block(paths: list[str], block: dict, root: Path) -> None:
    """Add ``block`` as ``run`` to each JSON file of ``paths`` (created when missing)."""
    for rel in paths:
        p = root / rel
        data = json.loads(p.read_text()) if p.is_file() else {}
        if not isinstance(data, dict):
            raise ValueError(f"{rel} is not a JSON object; cannot add the run block.")
        data["run"] = block
        write_json(data, p)


# --------------------------------------------------------------------------- the transaction
class StageRun:
    """Context manager around one stage command (module docstring)."""

    def __init__(self, stage: str, root: Path, profile: str | None = None,
                 quiet: bool = False):
        self.stage, self.root, self.profile, self.quiet = stage, Path(root), profile, quiet
        self.outs, self.metrics = stage_outputs(stage, self.root)
        self.paths = self.outs + self.metrics
        self.watchdog: subprocess.Popen | None = None
        self.sampler: Sampler | None = None

    def _say(self, msg: str) -> None:
        if not self.quiet:
            print(f"[weaklabel] {msg}", file=sys.stderr, flush=True)

    def __enter__(self):
        self.t0 = time.perf_counter()
        self.t0_wall = time.time()
        left = backup_dir(self.stage, self.root) / MARKER
        if left.is_file():
            self._say(f"stage {self.stage}: an earlier run was killed; its previous outputs "
                      "are put back before this run starts.")
        save_outputs(self.stage, self.paths, self.root)
        self._say(f"stage {self.stage}: previous outputs kept in "
                  f"{BACKUP_DIR}/{self.stage} until this run succeeds; if it fails they are "
                  f"put back (by hand: python -m weaklabel.pipeline restore {self.stage}).")
        self.watchdog = subprocess.Popen(
            [sys.executable, "-m", "weaklabel.stagerun", "watch", str(os.getpid()),
             self.stage, str(self.root)],
            stdin=subprocess.PIPE, start_new_session=True, stdout=subprocess.DEVNULL)
        self._old_term = signal.signal(signal.SIGTERM, _raise_interrupt)
        self.sampler = Sampler()
        self.sampler.start()
        return self

    def run_block(self) -> dict:
        """The measurements so far (wall, CPU, peak memory) as a ``run`` block."""
        self.sampler.sample()
        return run_block(time.perf_counter() - self.t0, self.sampler.cpu_seconds,
                         self.sampler.peak_rss, self.profile)

    def __exit__(self, exc_type, exc, tb):
        signal.signal(signal.SIGTERM, self._old_term)
        try:
            self.sampler.stop()
            if exc_type is None:
                try:
                    # file times come from the kernel's coarse clock, a tick behind time.time()
                    stale = check_fresh(self.outs, self.t0_wall - 0.02, self.root)
                except StageOutputError as e:
                    self._fail(type(e).__name__)
                    raise
                if stale:
                    self._say(f"stage {self.stage}: removed {len(stale)} file(s) of its output "
                              f"folders that this run did not write: {', '.join(stale[:5])}"
                              + (" ..." if len(stale) > 5 else ""))
                write_run_block(self.metrics, run_block(
                    time.perf_counter() - self.t0, self.sampler.cpu_seconds,
                    self.sampler.peak_rss, self.profile), self.root)
                drop_backup(self.stage, self.root)
            else:
                self._fail(exc_type.__name__)
        finally:
            self._stop_watchdog()
        return False

    def _fail(self, why: str) -> None:
        kill_processes(p for pid, p in _tree(os.getpid()).items()
                       if self.watchdog is None or pid != self.watchdog.pid)
        restored = restore_outputs(self.stage, self.root)
        self._say(f"stage {self.stage} failed ({why}); its previous outputs are back in place "
                  f"({len(restored)} of {len(self.paths)} declared outputs existed before the "
                  "run).")

    def _stop_watchdog(self) -> None:
        w = self.watchdog
        if w is None:
            return
        try:
            w.stdin.write(_DONE)
            w.stdin.close()
        except OSError:
            pass
        try:
            w.wait(timeout=10)
        except subprocess.TimeoutExpired:
            w.kill()


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


# --------------------------------------------------------------------------- the watchdog
def watch(pid: int, stage: str, root: Path) -> int:
    """Until the stage process ``pid`` says "done" on stdin: remember its descendants; when
    stdin closes without "done" (the stage was killed), kill them and restore the outputs."""
    seen: dict[int, object] = {}
    buf = b""
    stop = threading.Event()

    def reader():
        nonlocal buf
        while True:
            chunk = os.read(0, 64)
            if not chunk:
                break
            buf += chunk
        stop.set()

    threading.Thread(target=reader, daemon=True).start()
    while not stop.wait(SAMPLE_SECONDS):
        seen.update(_tree(pid))
    if buf.startswith(_DONE):
        return 0
    seen.update(_tree(pid))  # the stage process may still be exiting
    seen.pop(os.getpid(), None)  # the watchdog is a child of the stage too
    killed = kill_processes(seen.values())
    try:
        restored = restore_outputs(stage, root)
        msg = (f"stage {stage} was killed: {killed} child process(es) ended, previous outputs "
               f"put back ({len(restored)} path(s)).")
    except FileNotFoundError as e:
        msg = f"stage {stage} was killed: {killed} child process(es) ended; {e}"
    try:
        log = root / BACKUP_DIR / f"{stage}.killed.log"
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text(msg + "\n")
    except OSError:
        pass
    return 1


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if len(argv) == 4 and argv[0] == "watch":
        return watch(int(argv[1]), argv[2], Path(argv[3]))
    print("usage: python -m weaklabel.stagerun watch PID STAGE ROOT (started by StageRun)",
          file=sys.stderr)
    return 2


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
