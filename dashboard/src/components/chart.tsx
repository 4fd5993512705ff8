import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { useEffect, useRef } from 'preact/hooks';

// Only what the overview draws; Chart.js styles its canvas through the CSSOM, which the CSP allows.
Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Filler,
  Legend,
  Tooltip,
);
Chart.defaults.font.family = getComputedStyle(document.documentElement).fontFamily || 'system-ui, sans-serif';
Chart.defaults.color = '#475569';
Chart.defaults.borderColor = '#e2e8f0';
// One bucket (a single day) must not become one bar as wide as the chart.
Chart.defaults.datasets.bar.maxBarThickness = 56;
Chart.defaults.elements.point.radius = 3;

export const PALETTE = [
  '#4f46e5',
  '#0d9488',
  '#d97706',
  '#db2777',
  '#0284c7',
  '#65a30d',
  '#7c3aed',
  '#dc2626',
];

/** A chart; `name` and what it draws (type, bucket count) are on its box for tests and styles. */
export function ChartView(props: { name: string; config: ChartConfiguration; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart | null>(null);
  useEffect(() => {
    if (!canvas.current) return;
    chart.current?.destroy();
    chart.current = new Chart(canvas.current, {
      ...props.config,
      options: { responsive: true, maintainAspectRatio: false, animation: false, ...props.config.options },
    });
    return () => {
      chart.current?.destroy();
      chart.current = null;
    };
  }, [props.config]);
  return (
    <div
      class="chart-box"
      data-chart={props.name}
      data-type={props.config.type}
      data-buckets={props.config.data.labels?.length ?? 0}
    >
      <canvas ref={canvas} role="img" aria-label={props.label} />
    </div>
  );
}
