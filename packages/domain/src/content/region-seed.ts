import type { LocalisedText } from "./faq.ts";

/** A region of the first-start address tree: code, names in the five languages, children. */
export interface RegionSeed {
  code: string;
  name: LocalisedText;
  children?: readonly RegionSeed[];
}

const n = (zh: string, en: string, it: string, es: string, ja: string): LocalisedText => ({
  "zh-CN": zh,
  "en-US": en,
  it,
  es,
  ja,
});

/**
 * The address tree seeded into every tenant once (`seed_applied`, per country): the markets the
 * product sells in, with their states or provinces and a few cities. Administrators extend it.
 */
export const REGION_SEED: readonly RegionSeed[] = [
  {
    code: "AU",
    name: n("澳大利亚", "Australia", "Australia", "Australia", "オーストラリア"),
    children: [
      {
        code: "AU-NSW",
        name: n("新南威尔士州", "New South Wales", "Nuovo Galles del Sud", "Nueva Gales del Sur", "ニューサウスウェールズ州"),
        children: [{ code: "AU-NSW-SYD", name: n("悉尼", "Sydney", "Sydney", "Sídney", "シドニー") }],
      },
      {
        code: "AU-VIC",
        name: n("维多利亚州", "Victoria", "Victoria", "Victoria", "ビクトリア州"),
        children: [{ code: "AU-VIC-MEL", name: n("墨尔本", "Melbourne", "Melbourne", "Melbourne", "メルボルン") }],
      },
      {
        code: "AU-QLD",
        name: n("昆士兰州", "Queensland", "Queensland", "Queensland", "クイーンズランド州"),
        children: [{ code: "AU-QLD-BNE", name: n("布里斯班", "Brisbane", "Brisbane", "Brisbane", "ブリスベン") }],
      },
      {
        code: "AU-WA",
        name: n("西澳大利亚州", "Western Australia", "Australia Occidentale", "Australia Occidental", "西オーストラリア州"),
      },
      {
        code: "AU-SA",
        name: n("南澳大利亚州", "South Australia", "Australia Meridionale", "Australia Meridional", "南オーストラリア州"),
      },
      { code: "AU-TAS", name: n("塔斯马尼亚州", "Tasmania", "Tasmania", "Tasmania", "タスマニア州") },
      {
        code: "AU-ACT",
        name: n(
          "澳大利亚首都领地",
          "Australian Capital Territory",
          "Territorio della Capitale Australiana",
          "Territorio de la Capital Australiana",
          "オーストラリア首都特別地域",
        ),
      },
      {
        code: "AU-NT",
        name: n("北领地", "Northern Territory", "Territorio del Nord", "Territorio del Norte", "ノーザンテリトリー"),
      },
    ],
  },
  {
    code: "CN",
    name: n("中国", "China", "Cina", "China", "中国"),
    children: [
      { code: "CN-BJ", name: n("北京市", "Beijing", "Pechino", "Pekín", "北京市") },
      { code: "CN-SH", name: n("上海市", "Shanghai", "Shanghai", "Shanghái", "上海市") },
      {
        code: "CN-GD",
        name: n("广东省", "Guangdong", "Guangdong", "Cantón", "広東省"),
        children: [
          { code: "CN-GD-GZ", name: n("广州市", "Guangzhou", "Canton", "Cantón (ciudad)", "広州市") },
          { code: "CN-GD-SZ", name: n("深圳市", "Shenzhen", "Shenzhen", "Shenzhen", "深圳市") },
        ],
      },
      { code: "CN-ZJ", name: n("浙江省", "Zhejiang", "Zhejiang", "Zhejiang", "浙江省") },
      { code: "CN-JS", name: n("江苏省", "Jiangsu", "Jiangsu", "Jiangsu", "江蘇省") },
    ],
  },
  {
    code: "IT",
    name: n("意大利", "Italy", "Italia", "Italia", "イタリア"),
    children: [
      { code: "IT-25", name: n("伦巴第", "Lombardy", "Lombardia", "Lombardía", "ロンバルディア州") },
      { code: "IT-62", name: n("拉齐奥", "Lazio", "Lazio", "Lacio", "ラツィオ州") },
      { code: "IT-82", name: n("西西里", "Sicily", "Sicilia", "Sicilia", "シチリア州") },
    ],
  },
  {
    code: "ES",
    name: n("西班牙", "Spain", "Spagna", "España", "スペイン"),
    children: [
      {
        code: "ES-MD",
        name: n("马德里自治区", "Community of Madrid", "Comunità di Madrid", "Comunidad de Madrid", "マドリード州"),
      },
      { code: "ES-CT", name: n("加泰罗尼亚", "Catalonia", "Catalogna", "Cataluña", "カタルーニャ州") },
      { code: "ES-AN", name: n("安达卢西亚", "Andalusia", "Andalusia", "Andalucía", "アンダルシア州") },
    ],
  },
  {
    code: "JP",
    name: n("日本", "Japan", "Giappone", "Japón", "日本"),
    children: [
      { code: "JP-13", name: n("东京都", "Tokyo", "Tokyo", "Tokio", "東京都") },
      { code: "JP-27", name: n("大阪府", "Osaka", "Osaka", "Osaka", "大阪府") },
      { code: "JP-01", name: n("北海道", "Hokkaido", "Hokkaidō", "Hokkaidō", "北海道") },
    ],
  },
];
