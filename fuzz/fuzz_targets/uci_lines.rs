//! UCI input: every line of the input goes to the protocol layer, as from a GUI
//! (`position … moves …`, `go …`, `setoption …`, junk). Nothing may panic or hang; `quit`
//! at the end stops whatever search or perft is still running.
#![no_main]

use horizon::uci::Engine;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut engine = Engine::new();
    for line in text.lines().take(64) {
        // Keep runs short: refuse lines that would only ask for a huge table or thread count.
        if line.contains("Hash") || line.contains("Threads") || line.contains("bench") {
            continue;
        }
        if !engine.handle_line(line.trim()) {
            return;
        }
    }
    engine.handle_line("quit");
});
