"""Control groups per bot tree, v2 and v1 (referee/sandbox/cgroups.py).

These machines have cgroup v1 controllers and a v2 hierarchy without any:
the real v1 path is exercised by every sandbox test (and by the CPU-hog and
memory tests in test_containment.py). The v2 path, which most organisers'
hosts use, is checked here against a folder laid out as the kernel lays
out /sys/fs/cgroup: which hierarchy is chosen, and what each limit writes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.sandbox import cgroups

V2_MOUNTINFO = "30 25 0:26 / {root} rw,nosuid shared:4 - cgroup2 cgroup2 rw\n"
V1_MOUNTINFO = "".join(
    f"{40 + i} 25 0:{30 + i} / {{root}}/{name} rw shared:{9 + i} - cgroup cgroup rw,{name}\n"
    for i, name in enumerate(("cpu", "cpuacct", "memory", "pids")))


def v2_tree(tmp_path: Path, controllers: str = "cpu memory pids io") -> tuple[Path, Path, Path]:
    root = tmp_path / "sys"
    own = root / "system.slice" / "referee.service"
    own.mkdir(parents=True)
    (own / "cgroup.controllers").write_text(controllers + "\n")
    (own / "cgroup.subtree_control").write_text("")
    mountinfo = tmp_path / "mountinfo"
    mountinfo.write_text(V2_MOUNTINFO.format(root=root))
    mine = tmp_path / "cgroup"
    mine.write_text("0::/system.slice/referee.service\n")
    return own, mountinfo, mine


def test_v2_is_chosen_and_its_controllers_enabled_for_the_bots(tmp_path: Path) -> None:
    own, mountinfo, mine = v2_tree(tmp_path)
    found = cgroups.detect(str(mountinfo), str(mine))
    assert found is not None and found.version == "v2"
    assert found.folder("referee-box-x") == (str(own / "referee-box-x"),)
    assert (own / "cgroup.subtree_control").read_text() == "+cpu +memory +pids"
    assert found.describe() == f"cgroup v2 ({own})"


def test_v2_without_the_controllers_is_not_used(tmp_path: Path) -> None:
    _own, mountinfo, mine = v2_tree(tmp_path, controllers="io")
    assert cgroups.detect(str(mountinfo), str(mine)) is None


def test_a_v2_group_gets_an_equal_weight_a_cpu_cap_memory_and_processes(tmp_path: Path) -> None:
    own, mountinfo, mine = v2_tree(tmp_path)
    found = cgroups.detect(str(mountinfo), str(mine))
    assert found is not None
    group = cgroups.TreeGroup.create(found, "referee-box-x", cpu_cores=1.5, memory_bytes=2 << 30,
                                     max_processes=128)
    folder = own / "referee-box-x"
    assert {name: (folder / name).read_text() for name in ("cpu.weight", "cpu.max", "memory.max", "pids.max")} == {
        "cpu.weight": "100", "cpu.max": "150000 100000", "memory.max": str(2 << 30), "pids.max": "128"}
    (folder / "cpu.stat").write_text("usage_usec 2500000\nuser_usec 2000000\n")
    (folder / "memory.peak").write_text("123456\n")
    assert group.cpu_seconds() == 2.5 and group.memory_peak() == 123456


def test_v1_groups_are_made_in_each_controllers_hierarchy_below_the_referees_own(tmp_path: Path) -> None:
    root = tmp_path / "sys"
    mountinfo = tmp_path / "mountinfo"
    mountinfo.write_text(V1_MOUNTINFO.format(root=root))
    mine = tmp_path / "cgroup"
    mine.write_text("4:memory:/job/7\n3:pids:/\n2:cpuacct:/\n1:cpu:/\n0::/\n")
    for name, path in (("cpu", ""), ("cpuacct", ""), ("memory", "job/7"), ("pids", "")):
        (root / name / path).mkdir(parents=True, exist_ok=True)
    found = cgroups.detect(str(mountinfo), str(mine))
    assert found is not None and found.version == "v1"
    group = cgroups.TreeGroup.create(found, "referee-box-y", cpu_cores=1.0, memory_bytes=1 << 30, max_processes=64)
    assert set(group.folders) == {str(root / "cpu" / "referee-box-y"), str(root / "cpuacct" / "referee-box-y"),
                                  str(root / "memory" / "job" / "7" / "referee-box-y"),
                                  str(root / "pids" / "referee-box-y")}
    assert (root / "cpu" / "referee-box-y" / "cpu.cfs_quota_us").read_text() == "100000"
    assert (root / "cpu" / "referee-box-y" / "cpu.shares").read_text() == "1024"
    assert (root / "memory" / "job" / "7" / "referee-box-y" / "memory.limit_in_bytes").read_text() == str(1 << 30)
    (root / "cpuacct" / "referee-box-y" / "cpuacct.usage").write_text("1500000000\n")
    assert group.cpu_seconds() == 1.5


def test_without_any_writable_hierarchy_there_is_none(tmp_path: Path) -> None:
    mountinfo = tmp_path / "mountinfo"
    mountinfo.write_text("")
    mine = tmp_path / "cgroup"
    mine.write_text("0::/\n")
    assert cgroups.detect(str(mountinfo), str(mine)) is None


@pytest.mark.skipif(cgroups.detect() is None, reason="no writable cgroup hierarchy on this machine")
def test_this_machine_makes_real_groups_and_removes_them() -> None:
    found = cgroups.detect()
    assert found is not None
    group = cgroups.TreeGroup.create(found, "referee-box-test-real", cpu_cores=0.5, memory_bytes=256 << 20,
                                     max_processes=16)
    assert group.pids() == [] and group.cpu_seconds() == 0.0
    group.remove()
    assert not any(Path(folder).exists() for folder in group.folders)
