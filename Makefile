# `make` builds the release binary; `make EXE=path` copies it to `path` (what OpenBench
# and similar distributed testers call).
EXE ?= horizon

.PHONY: all clean
all:
	cargo build --release
	cp target/release/horizon $(EXE)

clean:
	cargo clean
