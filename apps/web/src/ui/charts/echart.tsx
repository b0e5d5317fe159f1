import { theme } from "antd";
import { BarChart, LineChart } from "echarts/charts";
import { DatasetComponent, GridComponent, LegendComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";
import { type CSSProperties, useEffect, useRef } from "react";

// Only the parts the console draws: line and bar charts with axes, legend and tooltip.
echarts.use([LineChart, BarChart, GridComponent, LegendComponent, TooltipComponent, DatasetComponent, CanvasRenderer]);

export type ChartOption = echarts.EChartsCoreOption;

/** ECharts' own palette after its first colour, whose place the console's theme colour takes. */
const PALETTE_REST = ["#91cc75", "#fac858", "#ee6666", "#73c0de", "#3ba272", "#fc8452", "#9a60b4", "#ea7ccc"];

/** The series colours of a chart: the theme colour first (an option's own colours win). */
export const themedOption = (option: ChartOption, primary: string): ChartOption =>
  option.color ? option : { ...option, color: [primary, ...PALETTE_REST] };

/**
 * A chart from an option object, over `echarts/core` so only the chart kinds registered above
 * reach the bundle. The chart follows its container's size, and its first series the theme colour.
 */
export function EChart({ option, style, testId }: { option: ChartOption; style?: CSSProperties; testId?: string }) {
  const { token } = theme.useToken();
  const primary = token.colorPrimary;
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    if (!host.current) return;
    const instance = echarts.init(host.current);
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(host.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(themedOption(option, primary), { notMerge: true });
  }, [option, primary]);

  return <div ref={host} data-testid={testId} data-primary={primary} style={{ width: "100%", height: 320, ...style }} />;
}
