use mdbook_widgets::teach::measure;
fn main() {
    let spec = widget_catalogue::widget("slow-start").unwrap();
    let args: Vec<String> = std::env::args().skip(1).collect();
    for v in [1, 5, 10, 16, 20, 26, 30, 40, 44, 50, 64, 80, 100] {
        let mut a: Vec<(String, String)> = args
            .iter()
            .map(|s| {
                let (k, v) = s.split_once('=').unwrap();
                (k.to_string(), v.to_string())
            })
            .collect();
        a.push(("initcwnd".into(), v.to_string()));
        let r = measure::widget_run(spec, &a).unwrap();
        println!(
            "initcwnd {v}: rt {:?} ms {:?} ff {:?}",
            r.get("round_trips"),
            r.get("completion_ms"),
            r.get("first_flight_segments")
        );
    }
}
