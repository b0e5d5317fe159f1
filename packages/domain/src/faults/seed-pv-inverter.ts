import { type FaultSeed, HEATING_1, SELF_CHECK_1, TP_DC_INV, t } from "./fault-seed.ts";

/** PV and inverter faults (codes 1100–1399). */
export const PV_INVERTER_FAULTS: readonly FaultSeed[] = [
  {
    code: 1101,
    level: 3,
    category: "pv",
    triggers: { 1: { key: SELF_CHECK_1, bit: 0 }, 2: { key: TP_DC_INV, bit: 0 } },
    texts: t(
      [
        "光伏输入过压",
        "组串串联块数过多；低温下组件开路电压升高",
        "断开直流开关，测量各组串开路电压；减少每串组件数量，使最低温度下开路电压低于逆变器上限",
      ],
      [
        "PV input overvoltage",
        "Too many modules in series; module open-circuit voltage rises in cold weather",
        "Open the DC switch and measure each string's open-circuit voltage; reduce the modules per string so the cold-weather open-circuit voltage stays below the inverter's limit",
      ],
      [
        "Sovratensione ingresso FV",
        "Troppi moduli in serie; la tensione a vuoto aumenta con il freddo",
        "Aprire il sezionatore CC e misurare la tensione a vuoto di ogni stringa; ridurre i moduli per stringa in modo che la tensione a vuoto a bassa temperatura resti sotto il limite",
      ],
      [
        "Sobretensión de entrada FV",
        "Demasiados módulos en serie; la tensión en circuito abierto sube con el frío",
        "Abra el seccionador de CC y mida la tensión en circuito abierto de cada string; reduzca los módulos por string para que con frío quede por debajo del límite del inversor",
      ],
      [
        "PV 入力過電圧",
        "直列モジュール数が多すぎる、低温時に開放電圧が上昇",
        "DC スイッチを切り、各ストリングの開放電圧を測定してください。最低気温時でも上限を超えないよう直列枚数を減らしてください",
      ],
    ),
  },
  {
    code: 1102,
    level: 2,
    category: "pv",
    triggers: { 1: { key: SELF_CHECK_1, bit: 1 }, 2: { key: TP_DC_INV, bit: 1 } },
    texts: t(
      [
        "光伏绝缘阻抗低",
        "组件或直流线缆破损对地漏电；接头进水；雨后潮湿",
        "逐路断开组串测量对地绝缘电阻，找出低阻组串；更换破损线缆或接头；潮湿引起的待干燥后自动恢复",
      ],
      [
        "PV insulation resistance low",
        "Damaged module or DC cable leaking to earth; water in a connector; damp after rain",
        "Disconnect the strings one by one and measure their insulation to earth to find the faulty one; replace damaged cables or connectors. Damp-related alarms clear once dry",
      ],
      [
        "Bassa resistenza d'isolamento FV",
        "Modulo o cavo CC danneggiato con dispersione verso terra; acqua in un connettore; umidità dopo la pioggia",
        "Scollegare le stringhe una alla volta e misurarne l'isolamento verso terra; sostituire cavi o connettori danneggiati. Se dovuto all'umidità si risolve asciugando",
      ],
      [
        "Resistencia de aislamiento FV baja",
        "Módulo o cable de CC dañado con fuga a tierra; agua en un conector; humedad tras la lluvia",
        "Desconecte los strings de uno en uno y mida su aislamiento a tierra; sustituya cables o conectores dañados. Si es por humedad se resuelve al secarse",
      ],
      [
        "PV 絶縁抵抗低下",
        "モジュールや DC ケーブルの損傷による地絡、コネクタへの浸水、雨上がりの湿気",
        "ストリングを一つずつ切り離して対地絶縁抵抗を測定し、不良箇所を特定してください。損傷したケーブル・コネクタを交換します。湿気が原因なら乾燥後に復帰します",
      ],
    ),
  },
  {
    code: 1103,
    level: 1,
    category: "pv",
    triggers: { 1: { key: SELF_CHECK_1, bit: 2 }, 2: { key: TP_DC_INV, bit: 2 } },
    texts: t(
      [
        "光伏组串发电偏低",
        "组件遮挡或脏污；组串接头松动；两路组串配置不一致",
        "检查组件表面是否遮挡或积灰；检查直流接头；对比两路 MPPT 电压电流，确认组串配置一致",
      ],
      [
        "PV string output low",
        "Shading or dirty modules; loose string connector; the two strings configured differently",
        "Look for shading or dirt on the modules; check the DC connectors; compare both MPPT voltages and currents and make the strings match",
      ],
      [
        "Produzione stringa FV bassa",
        "Ombreggiamento o moduli sporchi; connettore di stringa allentato; stringhe configurate in modo diverso",
        "Verificare ombre o sporco sui moduli; controllare i connettori CC; confrontare tensioni e correnti dei due MPPT e uniformare le stringhe",
      ],
      [
        "Producción baja de string FV",
        "Sombras o módulos sucios; conector de string suelto; strings configurados de forma distinta",
        "Busque sombras o suciedad en los módulos; revise los conectores de CC; compare tensiones y corrientes de ambos MPPT y iguale los strings",
      ],
      [
        "PV ストリング出力低下",
        "影やモジュールの汚れ、ストリングコネクタの緩み、2 系統のストリング構成の不一致",
        "モジュールの影や汚れを確認し、DC コネクタを点検し、2 つの MPPT の電圧・電流を比較して構成を揃えてください",
      ],
    ),
  },
  {
    code: 1201,
    level: 1,
    category: "battery",
    triggers: { 1: { key: HEATING_1, bit: 0 } },
    texts: t(
      [
        "电池低温，充放电受限",
        "电芯温度低于允许充电温度；安装环境过冷",
        "电池正在加热，温度恢复后自动解除；长期低温请改善安装环境保温",
      ],
      [
        "Battery cold, charging limited",
        "Cell temperature below the charging limit; installation site too cold",
        "The battery heats itself and the limit lifts once warm; if it recurs, insulate or move the battery to a warmer place",
      ],
      [
        "Batteria fredda, carica limitata",
        "Temperatura delle celle sotto il limite di carica; locale troppo freddo",
        "La batteria si riscalda da sola e il limite cessa a temperatura raggiunta; se si ripete, isolare o spostare la batteria in un luogo più caldo",
      ],
      [
        "Batería fría, carga limitada",
        "Temperatura de celdas por debajo del límite de carga; lugar de instalación demasiado frío",
        "La batería se calienta sola y el límite desaparece al templarse; si se repite, aísle o traslade la batería a un lugar más cálido",
      ],
      [
        "バッテリー低温・充電制限",
        "セル温度が充電許容温度を下回る、設置場所が寒すぎる",
        "バッテリーは自動で加温し、温度回復後に解除されます。繰り返す場合は保温対策または設置場所の変更を行ってください",
      ],
    ),
  },
  {
    code: 1202,
    level: 2,
    category: "battery",
    triggers: { 1: { key: HEATING_1, bit: 1 } },
    texts: t(
      [
        "电池过温",
        "通风不良；环境温度过高；大电流持续充放电",
        "检查电池周围通风与间距，避免阳光直射；降低充放电电流，温度下降后自动恢复",
      ],
      [
        "Battery overtemperature",
        "Poor ventilation; high ambient temperature; sustained high current",
        "Check ventilation and clearances around the battery and keep it out of direct sun; lower the charge/discharge current. It recovers once cooled",
      ],
      [
        "Sovratemperatura batteria",
        "Ventilazione insufficiente; temperatura ambiente elevata; corrente elevata prolungata",
        "Controllare ventilazione e distanze attorno alla batteria ed evitare il sole diretto; ridurre la corrente di carica/scarica. Si ripristina una volta raffreddata",
      ],
      [
        "Sobretemperatura de batería",
        "Ventilación deficiente; temperatura ambiente alta; corriente alta sostenida",
        "Revise la ventilación y las distancias alrededor de la batería y evite el sol directo; reduzca la corriente de carga/descarga. Se recupera al enfriarse",
      ],
      [
        "バッテリー過温度",
        "換気不良、周囲温度が高い、大電流の連続充放電",
        "バッテリー周囲の換気と離隔を確認し直射日光を避け、充放電電流を下げてください。冷却後に自動復帰します",
      ],
    ),
  },
  {
    code: 1301,
    level: 2,
    category: "inverter",
    triggers: { 1: { key: SELF_CHECK_1, bit: 4 }, 2: { key: TP_DC_INV, bit: 4 } },
    texts: t(
      [
        "逆变器过温",
        "散热器积灰；安装位置不通风或阳光直射；环境温度过高",
        "清理散热器和风道；保证机器四周留足散热空间并遮阳；逆变器会降额运行，温度下降后恢复",
      ],
      [
        "Inverter overtemperature",
        "Dusty heat sink; enclosed or sunny location; high ambient temperature",
        "Clean the heat sink and air paths; leave the required clearances and shade the unit. The inverter derates and recovers once it cools",
      ],
      [
        "Sovratemperatura inverter",
        "Dissipatore impolverato; posizione chiusa o al sole; temperatura ambiente elevata",
        "Pulire dissipatore e prese d'aria; rispettare le distanze e ombreggiare l'unità. L'inverter riduce la potenza e si ripristina raffreddandosi",
      ],
      [
        "Sobretemperatura del inversor",
        "Disipador con polvo; ubicación cerrada o al sol; temperatura ambiente alta",
        "Limpie el disipador y los conductos de aire; respete las distancias y dé sombra al equipo. El inversor reduce potencia y se recupera al enfriarse",
      ],
      [
        "インバーター過温度",
        "ヒートシンクの埃、密閉・直射日光の設置場所、周囲温度が高い",
        "ヒートシンクと通風路を清掃し、所定の離隔と日除けを確保してください。出力を抑制し、冷却後に復帰します",
      ],
    ),
  },
  {
    code: 1302,
    level: 3,
    category: "inverter",
    triggers: { 1: { key: SELF_CHECK_1, bit: 5 }, 2: { key: TP_DC_INV, bit: 5 } },
    texts: t(
      [
        "直流母线过压",
        "光伏输入电压过高；负载突变或电网扰动；内部采样故障",
        "检查光伏开路电压是否超限；断电重启逆变器；反复出现请联系售后检修",
      ],
      [
        "DC bus overvoltage",
        "PV input voltage too high; sudden load change or grid disturbance; internal measurement fault",
        "Check that the PV open-circuit voltage is within limits; power the inverter off and on; if it keeps returning, contact service",
      ],
      [
        "Sovratensione bus CC",
        "Tensione FV troppo alta; variazione brusca di carico o disturbo di rete; guasto di misura interno",
        "Verificare che la tensione a vuoto FV sia nei limiti; spegnere e riaccendere l'inverter; se si ripete contattare l'assistenza",
      ],
      [
        "Sobretensión del bus de CC",
        "Tensión FV demasiado alta; cambio brusco de carga o perturbación de red; fallo de medida interno",
        "Compruebe que la tensión FV en circuito abierto esté dentro de límites; apague y encienda el inversor; si se repite, contacte con el servicio técnico",
      ],
      [
        "DC バス過電圧",
        "PV 入力電圧が高すぎる、負荷急変や系統擾乱、内部計測の故障",
        "PV 開放電圧が範囲内か確認し、インバーターを再起動してください。再発する場合はサービスへ連絡してください",
      ],
    ),
  },
  {
    code: 1303,
    level: 2,
    category: "inverter",
    triggers: { 1: { key: SELF_CHECK_1, bit: 6 }, 2: { key: TP_DC_INV, bit: 6 } },
    texts: t(
      [
        "输出过载",
        "备用负载功率超过逆变器额定；大功率电机启动冲击",
        "减少备用输出端负载，错开大功率电器启动；确认负载总功率不超过额定输出",
      ],
      [
        "Output overload",
        "Backup load above the inverter's rating; inrush of large motors",
        "Reduce the load on the backup output and stagger heavy appliances; keep the total load within the rated output",
      ],
      [
        "Sovraccarico in uscita",
        "Carico di backup oltre la potenza nominale; spunto di motori grandi",
        "Ridurre il carico sull'uscita di backup e scaglionare gli apparecchi potenti; mantenere il carico entro la potenza nominale",
      ],
      [
        "Sobrecarga de salida",
        "Carga de respaldo por encima de la potencia nominal; arranque de motores grandes",
        "Reduzca la carga en la salida de respaldo y escalone los aparatos potentes; mantenga la carga dentro de la potencia nominal",
      ],
      [
        "出力過負荷",
        "バックアップ負荷が定格を超過、大型モーターの突入電流",
        "バックアップ出力の負荷を減らし、大型機器の起動をずらしてください。合計負荷を定格以内にしてください",
      ],
    ),
  },
  {
    code: 1304,
    level: 1,
    category: "inverter",
    triggers: { 1: { key: SELF_CHECK_1, bit: 7 }, 2: { key: TP_DC_INV, bit: 7 } },
    texts: t(
      ["风扇故障", "风扇被异物卡住；风扇线缆松脱；风扇老化损坏", "断电后检查风扇是否有异物并清理；检查风扇插头；损坏时更换风扇"],
      [
        "Fan fault",
        "Fan blocked by debris; fan cable loose; worn-out fan",
        "With the unit off, clear any debris from the fan; reseat the fan connector; replace the fan if it is damaged",
      ],
      [
        "Guasto ventola",
        "Ventola bloccata da detriti; cavo della ventola allentato; ventola usurata",
        "A unità spenta rimuovere i detriti dalla ventola; reinserire il connettore; sostituire la ventola se danneggiata",
      ],
      [
        "Fallo del ventilador",
        "Ventilador bloqueado por suciedad; cable suelto; ventilador desgastado",
        "Con el equipo apagado, retire la suciedad del ventilador; vuelva a conectar su conector; sustitúyalo si está dañado",
      ],
      [
        "ファン故障",
        "異物によるファンの詰まり、ファンケーブルの外れ、ファンの劣化",
        "電源を切ってファンの異物を除去し、コネクタを差し直してください。破損している場合はファンを交換します",
      ],
    ),
  },
];
