//! The `armada` command line: a thin shell over the library; it holds no game rules.

fn main() {}
