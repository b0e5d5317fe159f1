import { type FaultSeed, t } from "./fault-seed.ts";

/** Battery and BMS faults (codes 2000 and up). */
export const BATTERY_FAULTS: readonly FaultSeed[] = [
  {
    code: 2001,
    level: 2,
    category: "battery",
    triggers: { 2: { key: "TP_0X04_4639", bit: 0 } },
    texts: t(
      [
        "单体过压告警",
        "电芯不均衡；充电截止电压设置过高；BMS 电压采样偏差",
        "降低充电截止电压或充电电流；让电池静置均衡；检查单体电压差，偏差大时联系电池厂家",
      ],
      [
        "Cell overvoltage warning",
        "Cells out of balance; charge cut-off voltage set too high; BMS voltage reading off",
        "Lower the charge cut-off voltage or current; let the battery rest and balance; check the cell voltage spread and contact the battery maker if it is large",
      ],
      [
        "Avviso sovratensione cella",
        "Celle sbilanciate; tensione di fine carica troppo alta; misura di tensione del BMS errata",
        "Ridurre la tensione o la corrente di fine carica; lasciare riposare la batteria per il bilanciamento; controllare lo scarto tra celle e contattare il produttore se elevato",
      ],
      [
        "Aviso de sobretensión de celda",
        "Celdas desequilibradas; tensión de fin de carga demasiado alta; medida de tensión del BMS errónea",
        "Reduzca la tensión o corriente de fin de carga; deje reposar la batería para equilibrarla; revise la diferencia entre celdas y contacte con el fabricante si es grande",
      ],
      [
        "セル過電圧警告",
        "セルのアンバランス、充電終止電圧の設定が高すぎる、BMS 電圧計測のずれ",
        "充電終止電圧または電流を下げ、バッテリーを休止させてバランスを取ってください。セル電圧差が大きい場合はメーカーへ連絡してください",
      ],
    ),
  },
  {
    code: 2002,
    level: 2,
    category: "battery",
    triggers: { 2: { key: "TP_0X04_4639", bit: 1 } },
    texts: t(
      [
        "单体欠压告警",
        "电池深度放电；放电截止 SOC 设置过低；长期未充电",
        "提高放电截止 SOC；尽快用光伏或电网为电池充电；长期闲置时定期补电",
      ],
      [
        "Cell undervoltage warning",
        "Battery deeply discharged; discharge cut-off SOC set too low; not charged for a long time",
        "Raise the discharge cut-off SOC; charge the battery from PV or the grid soon; top it up regularly when idle",
      ],
      [
        "Avviso sottotensione cella",
        "Batteria scarica a fondo; SOC di fine scarica troppo basso; non caricata da tempo",
        "Aumentare il SOC di fine scarica; caricare presto la batteria da FV o rete; ricaricarla periodicamente se inutilizzata",
      ],
      [
        "Aviso de subtensión de celda",
        "Batería descargada a fondo; SOC de corte de descarga demasiado bajo; sin cargar desde hace tiempo",
        "Suba el SOC de corte de descarga; cargue pronto la batería desde FV o red; recárguela periódicamente si está sin uso",
      ],
      [
        "セル不足電圧警告",
        "深放電、放電終止 SOC の設定が低すぎる、長期間未充電",
        "放電終止 SOC を上げ、早めに PV または系統から充電してください。長期不使用時は定期的に補充電してください",
      ],
    ),
  },
  {
    code: 2004,
    level: 1,
    category: "battery",
    triggers: { 2: { key: "TP_0X04_4639", bit: 3 } },
    texts: t(
      [
        "电芯温度告警",
        "电池舱通风不良；环境温度过高或过低；大电流充放电",
        "改善电池安装处通风和环境温度；降低充放电电流；告警持续请检查温度传感器",
      ],
      [
        "Cell temperature warning",
        "Poor ventilation of the battery cabinet; ambient too hot or too cold; high charge/discharge current",
        "Improve ventilation and ambient temperature at the battery; lower the charge/discharge current; check the temperature sensors if it persists",
      ],
      [
        "Avviso temperatura cella",
        "Ventilazione del vano batteria scarsa; ambiente troppo caldo o freddo; corrente elevata",
        "Migliorare ventilazione e temperatura ambiente della batteria; ridurre la corrente; se persiste controllare i sensori di temperatura",
      ],
      [
        "Aviso de temperatura de celda",
        "Mala ventilación del armario de baterías; ambiente demasiado caliente o frío; corriente alta",
        "Mejore la ventilación y la temperatura ambiente de la batería; reduzca la corriente; si persiste revise los sensores de temperatura",
      ],
      [
        "セル温度警告",
        "バッテリー収納部の換気不良、周囲温度の過高・過低、大電流充放電",
        "バッテリー設置場所の換気と温度を改善し、充放電電流を下げてください。継続する場合は温度センサーを点検してください",
      ],
    ),
  },
  {
    code: 2006,
    level: 1,
    category: "battery",
    triggers: { 2: { key: "TP_0X04_4639", bit: 5 } },
    texts: t(
      [
        "电池 SOC 过低",
        "夜间负载耗尽电量；光伏不足；放电截止 SOC 设置偏低",
        "检查负载与光伏发电是否匹配；必要时设置电网补充充电时段",
      ],
      [
        "Battery SOC low",
        "Night-time load used up the charge; little PV; discharge cut-off SOC set low",
        "Check that load and PV generation match; set a grid top-up charging period if needed",
      ],
      [
        "SOC batteria basso",
        "Il carico notturno ha esaurito la carica; poca produzione FV; SOC di fine scarica basso",
        "Verificare l'equilibrio tra carico e produzione FV; impostare se necessario una fascia di ricarica da rete",
      ],
      [
        "SOC de batería bajo",
        "La carga nocturna agotó la batería; poca producción FV; SOC de corte bajo",
        "Compruebe que carga y producción FV estén equilibradas; configure un periodo de carga desde red si hace falta",
      ],
      [
        "バッテリー SOC 低下",
        "夜間負荷による消費、PV 発電不足、放電終止 SOC の設定が低い",
        "負荷と PV 発電のバランスを確認し、必要に応じて系統からの補充電時間帯を設定してください",
      ],
    ),
  },
  {
    code: 2101,
    level: 3,
    category: "battery",
    triggers: { 2: { key: "TP_0X04_4640", bit: 0 } },
    texts: t(
      [
        "单体过压保护",
        "电芯电压超过保护阈值，BMS 已切断充电",
        "停止充电并检查充电参数；待电压回落后执行清除故障；反复出现请联系电池厂家检测电芯",
      ],
      [
        "Cell overvoltage protection",
        "A cell exceeded the protection threshold and the BMS stopped charging",
        "Stop charging and check the charging parameters; clear the fault once the voltage has dropped; contact the battery maker to test the cells if it recurs",
      ],
      [
        "Protezione sovratensione cella",
        "Una cella ha superato la soglia di protezione e il BMS ha interrotto la carica",
        "Interrompere la carica e verificare i parametri; cancellare il guasto dopo il calo di tensione; se si ripete far verificare le celle dal produttore",
      ],
      [
        "Protección por sobretensión de celda",
        "Una celda superó el umbral de protección y el BMS cortó la carga",
        "Detenga la carga y revise sus parámetros; borre el fallo cuando baje la tensión; si se repite, pida al fabricante que revise las celdas",
      ],
      [
        "セル過電圧保護",
        "セル電圧が保護しきい値を超え、BMS が充電を遮断",
        "充電を止めて充電パラメーターを確認し、電圧低下後に故障をクリアしてください。再発する場合はメーカーにセル検査を依頼してください",
      ],
    ),
  },
  {
    code: 2102,
    level: 3,
    category: "battery",
    triggers: { 2: { key: "TP_0X04_4640", bit: 1 } },
    texts: t(
      [
        "充放电过流保护",
        "负载或充电电流超过电池允许值；电流限值设置过高；短路",
        "将充放电电流限值设为电池规格以内；检查直流侧是否短路；排除后清除故障",
      ],
      [
        "Charge/discharge overcurrent protection",
        "Load or charging current above what the battery allows; current limit set too high; short circuit",
        "Set the charge/discharge current limits within the battery's specification; check the DC side for a short circuit; clear the fault afterwards",
      ],
      [
        "Protezione sovracorrente di carica/scarica",
        "Corrente di carico o carica oltre il consentito; limite impostato troppo alto; cortocircuito",
        "Impostare i limiti di corrente entro le specifiche della batteria; verificare cortocircuiti lato CC; poi cancellare il guasto",
      ],
      [
        "Protección por sobrecorriente de carga/descarga",
        "Corriente de carga o descarga superior a la permitida; límite demasiado alto; cortocircuito",
        "Ajuste los límites de corriente dentro de la especificación de la batería; busque cortocircuitos en el lado de CC; después borre el fallo",
      ],
      [
        "充放電過電流保護",
        "負荷・充電電流がバッテリー許容値を超過、電流制限の設定が高すぎる、短絡",
        "充放電電流制限をバッテリー仕様内に設定し、DC 側の短絡を点検してから故障をクリアしてください",
      ],
    ),
  },
  {
    code: 2301,
    level: 3,
    category: "battery",
    triggers: { 2: { key: "TP_0X04_4643", bit: 0 } },
    texts: t(
      [
        "电池系统锁定",
        "多次触发保护后 BMS 锁定系统，禁止充放电",
        "查看保护记录并排除原因；使用“解锁系统”命令解锁；无法解锁请联系电池厂家",
      ],
      [
        "Battery system locked",
        "After repeated protections the BMS locked the system; charging and discharging are blocked",
        "Read the protection records and remove the cause; unlock with the Unlock system command; contact the battery maker if it will not unlock",
      ],
      [
        "Sistema batteria bloccato",
        "Dopo protezioni ripetute il BMS ha bloccato il sistema; carica e scarica sono inibite",
        "Leggere le registrazioni di protezione ed eliminarne la causa; sbloccare con il comando Sblocca sistema; contattare il produttore se non si sblocca",
      ],
      [
        "Sistema de batería bloqueado",
        "Tras protecciones repetidas el BMS bloqueó el sistema; carga y descarga impedidas",
        "Lea los registros de protección y elimine la causa; desbloquee con la orden Desbloquear sistema; contacte con el fabricante si no se desbloquea",
      ],
      [
        "バッテリーシステムロック",
        "保護が繰り返されたため BMS がシステムをロックし、充放電を禁止",
        "保護記録を確認して原因を取り除き、「システムロック解除」コマンドで解除してください。解除できない場合はメーカーへ連絡してください",
      ],
    ),
  },
  {
    code: 3001,
    level: 3,
    category: "battery",
    triggers: { 2: { key: "TP_0X04_4101", bit: 0 } },
    texts: t(
      [
        "高压预充失败",
        "预充电阻或继电器损坏；直流侧短路或电容过大；电池簇电压异常",
        "检查高压直流线缆与端子；测量电池簇电压；断电重启后仍失败请联系售后检修预充回路",
      ],
      [
        "High-voltage pre-charge failed",
        "Pre-charge resistor or relay damaged; short circuit or large capacitance on the DC side; rack voltage abnormal",
        "Check the high-voltage DC cables and terminals; measure the rack voltage; if it fails again after a power cycle, have service check the pre-charge circuit",
      ],
      [
        "Precarica alta tensione fallita",
        "Resistenza o relè di precarica danneggiati; cortocircuito o capacità elevata lato CC; tensione del rack anomala",
        "Controllare cavi e morsetti CC alta tensione; misurare la tensione del rack; se fallisce ancora dopo il riavvio far controllare il circuito di precarica",
      ],
      [
        "Fallo de precarga de alta tensión",
        "Resistencia o relé de precarga dañados; cortocircuito o capacidad alta en CC; tensión del rack anómala",
        "Revise los cables y bornes de CC de alta tensión; mida la tensión del rack; si vuelve a fallar tras reiniciar, pida al servicio que revise el circuito de precarga",
      ],
      [
        "高圧プリチャージ失敗",
        "プリチャージ抵抗やリレーの損傷、DC 側の短絡や過大容量、ラック電圧異常",
        "高圧 DC ケーブルと端子を点検し、ラック電圧を測定してください。再起動後も失敗する場合はプリチャージ回路の点検をサービスへ依頼してください",
      ],
    ),
  },
  {
    code: 3003,
    level: 2,
    category: "battery",
    triggers: { 2: { key: "TP_0X04_4101", bit: 2 } },
    texts: t(
      [
        "电池绝缘阻抗低",
        "高压线缆破损；电池舱进水或凝露；接插件绝缘老化",
        "断开高压后检查线缆和接插件；排除进水与凝露；测量绝缘电阻确认恢复",
      ],
      [
        "Battery insulation resistance low",
        "Damaged high-voltage cable; water or condensation in the battery cabinet; aged connector insulation",
        "With high voltage off, inspect cables and connectors; remove water and condensation; measure the insulation resistance to confirm",
      ],
      [
        "Bassa resistenza d'isolamento batteria",
        "Cavo alta tensione danneggiato; acqua o condensa nel vano; isolamento dei connettori invecchiato",
        "A alta tensione scollegata ispezionare cavi e connettori; eliminare acqua e condensa; misurare la resistenza d'isolamento per confermare",
      ],
      [
        "Resistencia de aislamiento de batería baja",
        "Cable de alta tensión dañado; agua o condensación en el armario; aislamiento de conectores envejecido",
        "Con la alta tensión desconectada, inspeccione cables y conectores; elimine agua y condensación; mida la resistencia de aislamiento para confirmar",
      ],
      [
        "バッテリー絶縁抵抗低下",
        "高圧ケーブルの損傷、収納部への浸水・結露、コネクタ絶縁の劣化",
        "高圧を遮断してケーブルとコネクタを点検し、浸水・結露を除去し、絶縁抵抗を測定して確認してください",
      ],
    ),
  },
];
