fn main() {
    let text = std::fs::read_to_string(std::env::args().nth(1).unwrap_or_default()).unwrap_or_default();
    let checked = opb_core::check(&text, &opb_core::Options::default());
    println!("{:#?}", checked.diagnostics);
}
