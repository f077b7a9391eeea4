"""Writes deploy/kubernetes/components/prometheus-operator/prometheus-rule.yaml from
docs/prometheus/alerts.yml, the one source of ZoneStream's alert rules:
    .venv/bin/python scripts/prometheus-rule.py
KubernetesManifestsTests fails when the two disagree."""
import pathlib
import yaml

root = pathlib.Path(__file__).resolve().parent.parent
rules = yaml.safe_load((root / "docs/prometheus/alerts.yml").read_text())
rule = {
    "apiVersion": "monitoring.coreos.com/v1",
    "kind": "PrometheusRule",
    "metadata": {"name": "zonestream"},
    "spec": {"groups": rules["groups"]},
}
header = (
    "# Generated from docs/prometheus/alerts.yml by scripts/prometheus-rule.py: edit the rules\n"
    "# there and run it again (KubernetesManifestsTests checks that the two agree).\n"
)
text = yaml.safe_dump(rule, sort_keys=False, width=1000, allow_unicode=True)
(root / "deploy/kubernetes/components/prometheus-operator/prometheus-rule.yaml").write_text(header + text)
