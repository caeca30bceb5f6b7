"""The benchmark's synthetic projects stay what the figures claim: every node resolved, enums
read across workspace packages, nothing reported."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from bench import synth
from pygen.cli import main
from pygen.config import load_config
from pygen.tools import merge


def test_workspace_project_resolves_enums_across_packages(tmp_path: Path) -> None:
    model = merge.load_model(load_config(synth.write_workspace(tmp_path, 3)))
    assert [n.type for n in model.nodes] == ["synth-node-0", "synth-node-1", "synth-node-2"]
    assert model.diagnostics == ()
    node = model.nodes[2]
    assert node.data_type.via == "name"
    fields = {f.name: f for f in node.data_type.fields}
    assert fields["codec"].type.literal_values() == ("h264", "h265", "av1")
    assert fields["quality"].type.literal_values() == ("draft", "standard", "high")
    assert fields["preferredCodec"].type.name == "Codec"
    assert node.default_data["codec"] == "av1"
    assert node.default_data["preferredCodec"] == "h264"
    read = {s.path for s in model.sources}
    assert {"packages/enums/src/index.ts", "packages/shared/src/index.ts",
            "apps/web/src/types.ts", "apps/web/src/defaults.ts"} <= read


def test_flat_project_resolves_every_node(tmp_path: Path) -> None:
    model = merge.load_model(load_config(synth.write_flat(tmp_path, 2)))
    assert [n.data_type.name for n in model.nodes] == ["SynthNode0Data", "SynthNode1Data"]
    assert model.diagnostics == ()


@pytest.mark.parametrize("write", [synth.write_flat, synth.write_workspace])
def test_cold_gen_succeeds_as_the_benchmark_runs_it(tmp_path: Path, write: synth.Writer) -> None:
    config = write(tmp_path, 2)
    result = CliRunner().invoke(main, ["gen", "-q", "--no-cache", "--config", str(config)],
                                catch_exceptions=False)
    assert (result.exit_code, result.output) == (0, "")


def test_monorepo_resolves_every_type_through_package_sources(tmp_path: Path) -> None:
    from bench.synth_monorepo import write_monorepo

    model = merge.load_model(load_config(write_monorepo(tmp_path, 4)))
    assert model.diagnostics == ()
    assert [n.data_type.via for n in model.nodes] == ["name"] * 4
    media = model.nodes[0].data_type  # an Omit chain over an index signature
    names = {f.name for f in media.fields}
    assert {"format", "width", "quality", "label", "prompt", "model"} <= names
    assert not {"legacyFormat", "fps", "internalId"} & names
    assert media.index_signature == "[key: string]: unknown"
    assert model.nodes[1].data_type.index_signature is None
    model_field = next(f for f in model.nodes[1].data_type.fields if f.name == "model")
    assert len(model_field.type.literal_values() or ()) >= 10
    read = {s.path for s in model.sources}
    assert "packages/core/src/models/m1.ts" in read
    assert not any("/dist/" in p for p in read)
    assert [(s.package, s.missing, s.used, s.how) for s in model.stand_ins] == [
        ("@bench/core", "packages/core/dist/index.d.ts", "packages/core/src/index.ts",
         "src/index"),
        ("@bench/media", "packages/media/dist/index.d.ts", "packages/media/src/index.ts",
         "src/index"),
    ]
