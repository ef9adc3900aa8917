// A plug-in generator (docs/plugins.md): two Gaussian clouds, one a label.
import { defineGenerator } from "perceptron-lab/plugin";

export default defineGenerator({
  name: "gaussian-mixture",
  description: "two Gaussian clouds of labels −1 and +1, means ±margin·u for a random unit u, each coordinate's spread radius/√d (so a point's distance from its mean is about radius)",
  keys: ["margin", "radius"],
  required: ["margin"],
  exclude: ({ margin, radius }) => (margin > 100 * radius ? "margin above 100·radius: every run would be the same two clusters" : null),
  generate({ n, d, margin, radius }, draws) {
    // Every number comes from `draws`, the run's data stream: the same seed gives the same data.
    const u = Array.from({ length: d }, () => draws.normal());
    const norm = Math.hypot(...u);
    for (let j = 0; j < d; j++) u[j] /= norm;
    const spread = radius / Math.sqrt(d);
    const x = new Float64Array(n * d);
    const y = new Int8Array(n);
    let separated = true;
    for (let i = 0; i < n; i++) {
      y[i] = draws.uniform() < 0.5 ? -1 : 1;
      let along = 0;
      for (let j = 0; j < d; j++) {
        x[i * d + j] = y[i] * margin * u[j] + spread * draws.normal();
        along += u[j] * x[i * d + j];
      }
      if (!(y[i] * along > 0)) separated = false;
    }
    // u is the Bayes direction; it is a planted separator only where it separates this sample.
    return { x, y, planted: separated ? { w: u, b: 0 } : null };
  },
});
