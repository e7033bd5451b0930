# `make` builds the release binary; `make EXE=path` copies it to `path` (what OpenBench
# and similar distributed testers call). `make FEATURES=spsa` builds the tuning build whose
# search margins are UCI options (docs/spsa.md).
EXE ?= horizon
FEATURES ?=

.PHONY: all clean
all:
	cargo build --release $(if $(FEATURES),--features $(FEATURES))
	cp target/release/horizon $(EXE)

clean:
	cargo clean
