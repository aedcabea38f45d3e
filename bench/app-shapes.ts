import type { Template } from './deploy-engine.js';

type Resources = Template['Resources'];
const ref = (id: string) => ({ Ref: id });
const getAtt = (id: string, attribute: string) => ({ 'Fn::GetAtt': [id, attribute] });

/**
 * What `new ec2.Vpc(this, 'Vpc', { maxAzs: azs })` synthesizes: a VPC, an internet gateway
 * and its attachment, per AZ a public subnet (route table, association, default route, EIP,
 * NAT gateway) and a private subnet (route table, association, route through the NAT), and a
 * security group. The NAT gateways are the minutes of it.
 */
export function vpc(azs: number): Template {
  const r: Resources = {
    Vpc: {
      Type: 'AWS::EC2::VPC',
      Properties: { CidrBlock: '10.0.0.0/16', EnableDnsHostnames: true, EnableDnsSupport: true },
    },
    Igw: { Type: 'AWS::EC2::InternetGateway', Properties: {} },
    IgwAttachment: {
      Type: 'AWS::EC2::VPCGatewayAttachment',
      Properties: { VpcId: ref('Vpc'), InternetGatewayId: ref('Igw') },
    },
    Sg: {
      Type: 'AWS::EC2::SecurityGroup',
      Properties: { GroupDescription: 'bench', VpcId: ref('Vpc') },
    },
  };
  for (let az = 0; az < azs; az++) {
    const zone = `us-east-1${String.fromCharCode(97 + az)}`;
    for (const [kind, offset] of [
      ['Public', 0],
      ['Private', 128],
    ] as const) {
      const s = `${kind}${az}`;
      r[`${s}Subnet`] = {
        Type: 'AWS::EC2::Subnet',
        Properties: {
          VpcId: ref('Vpc'),
          CidrBlock: `10.0.${offset + az * 16}.0/20`,
          AvailabilityZone: zone,
          MapPublicIpOnLaunch: kind === 'Public',
        },
      };
      r[`${s}RouteTable`] = { Type: 'AWS::EC2::RouteTable', Properties: { VpcId: ref('Vpc') } };
      r[`${s}Association`] = {
        Type: 'AWS::EC2::SubnetRouteTableAssociation',
        Properties: { SubnetId: ref(`${s}Subnet`), RouteTableId: ref(`${s}RouteTable`) },
      };
    }
    r[`Public${az}Route`] = {
      Type: 'AWS::EC2::Route',
      DependsOn: ['IgwAttachment'],
      Properties: {
        RouteTableId: ref(`Public${az}RouteTable`),
        DestinationCidrBlock: '0.0.0.0/0',
        GatewayId: ref('Igw'),
      },
    };
    r[`Public${az}Eip`] = { Type: 'AWS::EC2::EIP', Properties: { Domain: 'vpc' } };
    r[`Public${az}Nat`] = {
      Type: 'AWS::EC2::NatGateway',
      DependsOn: [`Public${az}Route`, `Public${az}Association`],
      Properties: {
        SubnetId: ref(`Public${az}Subnet`),
        AllocationId: getAtt(`Public${az}Eip`, 'AllocationId'),
      },
    };
    r[`Private${az}Route`] = {
      Type: 'AWS::EC2::Route',
      Properties: {
        RouteTableId: ref(`Private${az}RouteTable`),
        DestinationCidrBlock: '0.0.0.0/0',
        NatGatewayId: ref(`Public${az}Nat`),
      },
    };
  }
  return { Resources: r };
}

/**
 * What `ecs_patterns.ApplicationLoadBalancedFargateService` synthesizes on that VPC: a
 * cluster, a task definition with its execution role and log group, a public load balancer
 * with its security group, target group and listener, and the service in the private subnets
 * (waiting for the listener, as CDK makes it, and for the private routes).
 */
export function containerService(azs: number): Template {
  const r: Resources = { ...vpc(azs).Resources };
  const privateSubnets = Array.from({ length: azs }, (_, az) => ref(`Private${az}Subnet`));
  const publicSubnets = Array.from({ length: azs }, (_, az) => ref(`Public${az}Subnet`));
  r.Cluster = { Type: 'AWS::ECS::Cluster', Properties: {} };
  r.ExecutionRole = {
    Type: 'AWS::IAM::Role',
    Properties: {
      AssumeRolePolicyDocument: {
        Version: '2012-10-17',
        Statement: [
          { Effect: 'Allow', Principal: { Service: 'ecs-tasks.amazonaws.com' }, Action: 'sts:AssumeRole' },
        ],
      },
    },
  };
  r.TaskLogs = { Type: 'AWS::Logs::LogGroup', Properties: { RetentionInDays: 7 } };
  r.TaskDefinition = {
    Type: 'AWS::ECS::TaskDefinition',
    Properties: {
      Family: 'bench-web',
      Cpu: '256',
      Memory: '512',
      NetworkMode: 'awsvpc',
      RequiresCompatibilities: ['FARGATE'],
      ExecutionRoleArn: getAtt('ExecutionRole', 'Arn'),
      ContainerDefinitions: [
        {
          Name: 'web',
          Image: 'public.ecr.aws/nginx/nginx:latest',
          PortMappings: [{ ContainerPort: 80 }],
          LogConfiguration: {
            LogDriver: 'awslogs',
            Options: {
              'awslogs-group': ref('TaskLogs'),
              'awslogs-region': 'us-east-1',
              'awslogs-stream-prefix': 'web',
            },
          },
        },
      ],
    },
  };
  r.LbSg = {
    Type: 'AWS::EC2::SecurityGroup',
    Properties: {
      GroupDescription: 'load balancer',
      VpcId: ref('Vpc'),
      SecurityGroupIngress: [{ IpProtocol: 'tcp', FromPort: 80, ToPort: 80, CidrIp: '0.0.0.0/0' }],
    },
  };
  r.Lb = {
    Type: 'AWS::ElasticLoadBalancingV2::LoadBalancer',
    DependsOn: Array.from({ length: azs }, (_, az) => `Public${az}Route`),
    Properties: {
      Scheme: 'internet-facing',
      Type: 'application',
      Subnets: publicSubnets,
      SecurityGroups: [getAtt('LbSg', 'GroupId')],
    },
  };
  r.TargetGroup = {
    Type: 'AWS::ElasticLoadBalancingV2::TargetGroup',
    Properties: { Port: 80, Protocol: 'HTTP', TargetType: 'ip', VpcId: ref('Vpc') },
  };
  r.Listener = {
    Type: 'AWS::ElasticLoadBalancingV2::Listener',
    Properties: {
      LoadBalancerArn: ref('Lb'),
      Port: 80,
      Protocol: 'HTTP',
      DefaultActions: [{ Type: 'forward', TargetGroupArn: ref('TargetGroup') }],
    },
  };
  r.Service = {
    Type: 'AWS::ECS::Service',
    DependsOn: ['Listener', ...Array.from({ length: azs }, (_, az) => `Private${az}Route`)],
    Properties: {
      Cluster: ref('Cluster'),
      TaskDefinition: ref('TaskDefinition'),
      LaunchType: 'FARGATE',
      DesiredCount: 2,
      NetworkConfiguration: {
        AwsvpcConfiguration: { Subnets: privateSubnets, SecurityGroups: [getAtt('Sg', 'GroupId')] },
      },
      LoadBalancers: [{ ContainerName: 'web', ContainerPort: 80, TargetGroupArn: ref('TargetGroup') }],
    },
  };
  return { Resources: r };
}

/**
 * A chain of `length` queues, topics and parameters, each naming the one before it by Ref
 * (which every route answers: bench/deploy-engine.ts's `deep` reads Arn attributes only
 * Cloud Control records for a parameter).
 */
export function chain(length: number): Template {
  const types = ['AWS::SQS::Queue', 'AWS::SNS::Topic', 'AWS::SSM::Parameter'];
  const r: Resources = {};
  for (let i = 0; i < length; i++) {
    const type = types[i % types.length]!;
    const previous = i === 0 ? 'root' : ref(`L${i - 1}`);
    r[`L${i}`] = {
      Type: type,
      Properties:
        type === 'AWS::SSM::Parameter'
          ? { Type: 'String', Value: previous }
          : { Tags: [{ Key: 'previous', Value: previous }] },
    };
  }
  return { Resources: r };
}
