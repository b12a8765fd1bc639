extends SceneTree
## Godot-side benchmark peers for `cargo xtask bench`. Prints `peer <id> <value>` lines that the
## core benchmarks combine with their own measures, and full `bench …` lines for Godot-only
## measures. `-- --quick` uses fewer repetitions (median of at least 3).


func _median(samples: Array) -> float:
	samples.sort()
	return samples[samples.size() / 2]


func _initialize() -> void:
	var quick := OS.get_cmdline_user_args().has("--quick")
	var reps := 3 if quick else 7
	# noise_fbm8_1025: FastNoiseLite Perlin fBm, 8 octaves, frequency 1/256, a 1025² image —
	# the same octaves, frequency and sample count as Ridgeline's measurement.
	var noise := FastNoiseLite.new()
	noise.noise_type = FastNoiseLite.TYPE_PERLIN
	noise.fractal_type = FastNoiseLite.FRACTAL_FBM
	noise.fractal_octaves = 8
	noise.fractal_lacunarity = 2.0
	noise.fractal_gain = 0.5
	noise.frequency = 1.0 / 256.0
	var times := []
	for i in reps:
		var start := Time.get_ticks_usec()
		var image := noise.get_image(1025, 1025)
		times.append((Time.get_ticks_usec() - start) / 1000.0)
		if image == null or image.get_width() != 1025:
			push_error("FastNoiseLite returned no image")
			quit(1)
			return
	print("peer noise_fbm8_1025 %.3f" % _median(times))
	quit(0)
