#!/usr/bin/python3
"""A release profile for a build no exporter ran on: keys.json's fields as the
build reported them, plus the probed behaviour fields of a nearby release's
profile (TEMPLATE), kept only where they name keys this build has and listed in
`inferred` (README "Release profiles"). lib/builtin/data/torch-2.6.0+cuda/
profile.json was made with:
  tools/profile-from-keys.py ../shared/data/torch-2.6.0-cuda/keys.json \
      lib/builtin/data/torch-2.14.1/profile.json 2.6.0 \
      '2.6.0+debian (Debian python3-torch-cuda 2.6.0+dfsg-7+b1, CUDA 12.4)' CUDA > profile.json"""

import json
import sys


def main(keys_path, template_path, version, reference_build, build):
    with open(keys_path, encoding="utf-8") as f:
        keys = json.load(f)
    with open(template_path, encoding="utf-8") as f:
        template = json.load(f)
    names = {e["name"] for e in keys["enum"]}
    runtime = set(keys["runtime_key_order"])
    profile = {"dispatchctl_release_profile": 1, "torch_version": version, "reference_build": reference_build,
               "build": build}
    profile.update(keys)
    inferred = []
    for field, value in template.items():
        if field in profile or field in ("inferred", "probes", "build"):
            continue
        if field == "python_parseable_names" or field.endswith("_keys") and isinstance(value, list) or \
                field.startswith(("default_tls_", "inference_")):
            value = [k for k in value if k in names]
        elif field == "autocast_key_of_backend":
            value = {b: k for b, k in value.items() if b in runtime and k in names}
        elif field == "tensor_presets":
            value = {p: dict(v, observed=False) for p, v in value.items() if all(k in names for k in v["keys"])}
        elif field == "tensor_modifier_keys":
            value = {m: k for m, k in value.items() if k in names}
        profile[field] = value
        inferred.append("/" + field)
    profile["inferred"] = inferred
    json.dump(profile, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    if len(sys.argv) != 6:
        sys.exit("usage: profile-from-keys.py KEYS_JSON TEMPLATE_PROFILE VERSION REFERENCE_BUILD BUILD")
    main(*sys.argv[1:])
