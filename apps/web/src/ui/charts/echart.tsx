import { BarChart, LineChart } from "echarts/charts";
import { DatasetComponent, GridComponent, LegendComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";
import { type CSSProperties, useEffect, useRef } from "react";

// Only the parts the console draws: line and bar charts with axes, legend and tooltip.
echarts.use([LineChart, BarChart, GridComponent, LegendComponent, TooltipComponent, DatasetComponent, CanvasRenderer]);

export type ChartOption = echarts.EChartsCoreOption;

/**
 * A chart from an option object, over `echarts/core` so only the chart kinds registered above
 * reach the bundle. The chart follows its container's size.
 */
export function EChart({ option, style, testId }: { option: ChartOption; style?: CSSProperties; testId?: string }) {
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
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return <div ref={host} data-testid={testId} style={{ width: "100%", height: 320, ...style }} />;
}
