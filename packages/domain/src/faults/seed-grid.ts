import { type FaultSeed, GRID_1, TP_GRID, t } from "./fault-seed.ts";

/** Grid faults (codes 1001–1099). */
export const GRID_FAULTS: readonly FaultSeed[] = [
  {
    code: 1001,
    level: 3,
    category: "grid",
    triggers: { 1: { key: GRID_1, bit: 0 }, 2: { key: TP_GRID, bit: 0 } },
    texts: t(
      [
        "电网断电",
        "电网停电；交流断路器断开；交流接线松动",
        "确认当地电网是否停电；检查交流断路器和并网端子接线，恢复后设备自动并网",
      ],
      [
        "Grid lost",
        "Utility outage; AC breaker open; loose AC wiring",
        "Check whether the local grid is down; check the AC breaker and the grid terminal wiring. The inverter reconnects by itself once the grid returns",
      ],
      [
        "Rete assente",
        "Blackout della rete; interruttore CA aperto; cablaggio CA allentato",
        "Verificare se la rete locale è assente; controllare l'interruttore CA e il cablaggio dei morsetti di rete. L'inverter si ricollega da solo al ritorno della rete",
      ],
      [
        "Pérdida de red",
        "Corte de suministro; interruptor de CA abierto; cableado de CA suelto",
        "Compruebe si la red local está caída; revise el interruptor de CA y el cableado de los bornes de red. El inversor se reconecta solo cuando vuelve la red",
      ],
      [
        "系統停電",
        "系統の停電、AC ブレーカーの開放、AC 配線の緩み",
        "地域の停電を確認し、AC ブレーカーと系統端子の配線を点検してください。系統が復旧すると自動で再連系します",
      ],
    ),
  },
  {
    code: 1002,
    level: 2,
    category: "grid",
    triggers: { 1: { key: GRID_1, bit: 1 }, 2: { key: TP_GRID, bit: 1 } },
    texts: t(
      [
        "电网过压",
        "电网电压高于保护上限；并网线缆过长或线径过细；安规设置不符",
        "测量并网点电压；线缆过长时加大线径；确认国家/安规设置正确，必要时联系电网公司",
      ],
      [
        "Grid overvoltage",
        "Grid voltage above the protection limit; AC cable too long or too thin; wrong grid code setting",
        "Measure the voltage at the connection point; use a thicker cable for long runs; confirm the country/grid code setting and contact the utility if the grid stays high",
      ],
      [
        "Sovratensione di rete",
        "Tensione di rete oltre il limite di protezione; cavo CA troppo lungo o sottile; codice di rete errato",
        "Misurare la tensione al punto di connessione; usare un cavo di sezione maggiore per tratte lunghe; verificare il codice di rete e contattare il distributore se la tensione resta alta",
      ],
      [
        "Sobretensión de red",
        "Tensión de red por encima del límite; cable de CA demasiado largo o fino; código de red incorrecto",
        "Mida la tensión en el punto de conexión; use un cable de mayor sección en tramos largos; confirme el código de red y contacte con la distribuidora si la tensión sigue alta",
      ],
      [
        "系統過電圧",
        "系統電圧が保護上限を超過、AC ケーブルが長すぎる・細すぎる、系統規定の設定誤り",
        "連系点の電圧を測定し、長い配線は太いケーブルに交換し、国・系統規定の設定を確認してください。改善しない場合は電力会社へ連絡してください",
      ],
    ),
  },
  {
    code: 1003,
    level: 2,
    category: "grid",
    triggers: { 1: { key: GRID_1, bit: 2 }, 2: { key: TP_GRID, bit: 2 } },
    texts: t(
      [
        "电网欠压",
        "电网电压低于保护下限；电网负荷过重；交流接线接触不良",
        "测量并网点电压；检查交流端子是否松动或发热；持续欠压请联系电网公司",
      ],
      [
        "Grid undervoltage",
        "Grid voltage below the protection limit; heavily loaded grid; poor AC contact",
        "Measure the voltage at the connection point; check the AC terminals for looseness or heat marks; contact the utility if it persists",
      ],
      [
        "Sottotensione di rete",
        "Tensione di rete sotto il limite; rete sovraccarica; contatto CA difettoso",
        "Misurare la tensione al punto di connessione; controllare che i morsetti CA non siano allentati o surriscaldati; contattare il distributore se persiste",
      ],
      [
        "Subtensión de red",
        "Tensión de red por debajo del límite; red muy cargada; mal contacto de CA",
        "Mida la tensión en el punto de conexión; revise los bornes de CA por holgura o calentamiento; contacte con la distribuidora si persiste",
      ],
      [
        "系統不足電圧",
        "系統電圧が保護下限を下回る、系統の過負荷、AC 接続不良",
        "連系点の電圧を測定し、AC 端子の緩みや発熱を点検してください。継続する場合は電力会社へ連絡してください",
      ],
    ),
  },
  {
    code: 1004,
    level: 2,
    category: "grid",
    triggers: { 1: { key: GRID_1, bit: 3 }, 2: { key: TP_GRID, bit: 3 } },
    texts: t(
      [
        "电网欠频",
        "电网频率低于保护下限；离网发电机频率不稳；安规频率范围设置过窄",
        "检查电网频率；由发电机供电时检查发电机调速；确认安规频率保护设置",
      ],
      [
        "Grid underfrequency",
        "Grid frequency below the protection limit; unstable generator supply; frequency window set too narrow",
        "Check the grid frequency; when fed by a generator check its governor; confirm the frequency protection settings of the grid code",
      ],
      [
        "Sottofrequenza di rete",
        "Frequenza sotto il limite; generatore instabile; finestra di frequenza troppo stretta",
        "Controllare la frequenza di rete; con generatore verificarne il regolatore di giri; confermare le soglie di frequenza del codice di rete",
      ],
      [
        "Subfrecuencia de red",
        "Frecuencia por debajo del límite; generador inestable; ventana de frecuencia demasiado estrecha",
        "Compruebe la frecuencia de red; con generador revise su regulador; confirme los ajustes de protección de frecuencia",
      ],
      [
        "系統周波数低下",
        "系統周波数が保護下限を下回る、発電機の周波数不安定、周波数範囲の設定が狭すぎる",
        "系統周波数を確認し、発電機給電時は調速機を点検し、系統規定の周波数保護設定を確認してください",
      ],
    ),
  },
  {
    code: 1005,
    level: 2,
    category: "grid",
    triggers: { 1: { key: GRID_1, bit: 4 }, 2: { key: TP_GRID, bit: 4 } },
    texts: t(
      [
        "电网过频",
        "电网频率高于保护上限；发电机转速过高；安规频率范围设置过窄",
        "检查电网频率；由发电机供电时调低发电机转速；确认安规频率保护设置",
      ],
      [
        "Grid overfrequency",
        "Grid frequency above the protection limit; generator running too fast; frequency window set too narrow",
        "Check the grid frequency; when fed by a generator lower its speed; confirm the frequency protection settings of the grid code",
      ],
      [
        "Sovrafrequenza di rete",
        "Frequenza oltre il limite; generatore troppo veloce; finestra di frequenza troppo stretta",
        "Controllare la frequenza di rete; con generatore ridurne i giri; confermare le soglie di frequenza del codice di rete",
      ],
      [
        "Sobrefrecuencia de red",
        "Frecuencia por encima del límite; generador demasiado rápido; ventana de frecuencia demasiado estrecha",
        "Compruebe la frecuencia de red; con generador reduzca su velocidad; confirme los ajustes de protección de frecuencia",
      ],
      [
        "系統周波数上昇",
        "系統周波数が保護上限を超過、発電機の回転数過大、周波数範囲の設定が狭すぎる",
        "系統周波数を確認し、発電機給電時は回転数を下げ、系統規定の周波数保護設定を確認してください",
      ],
    ),
  },
];
